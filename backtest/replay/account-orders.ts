/**
 * The backtest account's orders and deals, with the venue's query semantics: open orders newest first
 * with market/orderId/clientOrderId filters and limit/offset paging; deals newest first likewise;
 * client order ids unique for ever within the account.
 */
import type { Decimal } from '../../src/model/decimal.js';
import type { Deal, Order, OrderKind, Side, StpMode, VenueOrderStatus } from '../../src/model/order.js';
import type { Hold } from '../../src/sim/settlement.js';
import { ClientIdIndex } from './client-id-index.js';

/** The venue-side mutable order; its funds are a settlement Hold (src/sim/settlement.ts), as the sim's orders are. */
export interface VirtualOrder extends Hold {
  readonly id: number;
  readonly clientOrderId: string;
  readonly market: string;
  readonly side: Side;
  readonly kind: OrderKind;
  readonly timestamp: number;
  readonly amount: Decimal;
  readonly price: Decimal;
  /** Price in integer ticks of the market's price step. */
  readonly ticks: number;
  readonly activationPrice?: Decimal;
  left: Decimal;
  dealStock: Decimal;
  dealMoney: Decimal;
  dealFee: Decimal;
  readonly postOnly: boolean;
  readonly ioc: boolean;
  readonly rpi: boolean;
  readonly stp: StpMode;
  status: VenueOrderStatus;
  open: boolean;
}

export function toOrder(o: VirtualOrder): Order {
  const order: Order = {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    kind: o.kind,
    timestamp: o.timestamp,
    amount: o.amount,
    price: o.price,
    left: o.left,
    dealStock: o.dealStock,
    dealMoney: o.dealMoney,
    dealFee: o.dealFee,
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
    stp: o.stp,
    status: o.status,
  };
  return o.activationPrice === undefined ? order : { ...order, activationPrice: o.activationPrice };
}

export interface OrderQuery {
  readonly market?: string | undefined;
  readonly orderId?: number | undefined;
  readonly clientOrderId?: string | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** A deals query (its fields and the number of deals then) and its answer. */
interface DealsAnswer {
  readonly count: number;
  readonly market: string | undefined;
  readonly clientOrderId: string | undefined;
  readonly offset: number;
  readonly limit: number;
  readonly page: readonly Deal[];
}

export class AccountOrders {
  /** Insertion order = placement order (oldest first). */
  readonly open = new Map<number, VirtualOrder>();
  /** Every client order id used (client-id-index.ts: the engine's ids by their counter, not in a Set of the day's). */
  readonly #usedIds = new ClientIdIndex<true>();
  readonly #deals: Deal[] = [];
  /** The same deals by client order id (the reconciliation's query, after a cancel that found the order filled). */
  readonly #dealsByClientId = new ClientIdIndex<Deal[]>();
  /**
   * The last deals query and its answer, one for the history's pages (the deals poll, every second) and one for one
   * order's deals (a reconcile's look-up), so the look-ups do not evict the poll's page.
   */
  readonly #lastDeals: [DealsAnswer | undefined, DealsAnswer | undefined] = [undefined, undefined];

  isClientOrderIdUsed(id: string): boolean {
    return this.#usedIds.has(id);
  }

  add(o: VirtualOrder): void {
    this.open.set(o.id, o);
    if (o.clientOrderId !== '') this.#usedIds.set(o.clientOrderId, true);
  }

  finish(o: VirtualOrder): void {
    this.open.delete(o.id);
  }

  addDeal(d: Deal): void {
    this.#deals.push(d);
    const own = this.#dealsByClientId.get(d.clientOrderId);
    if (own === undefined) this.#dealsByClientId.set(d.clientOrderId, [d]);
    else own.push(d);
  }

  findOpen(market: string, by: { orderId?: number; clientOrderId?: string }): VirtualOrder | undefined {
    if (by.orderId !== undefined) {
      const o = this.open.get(by.orderId);
      return o?.market === market ? o : undefined;
    }
    if (by.clientOrderId) for (const o of this.open.values()) if (o.clientOrderId === by.clientOrderId && o.market === market) return o;
    return undefined;
  }

  openOrders(q: OrderQuery = {}): Order[] {
    const all = [...this.open.values()];
    const out: Order[] = [];
    let skip = q.offset ?? 0;
    const limit = q.limit ?? 50;
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const o = all[i]!;
      if ((q.market !== undefined && o.market !== q.market) || (q.orderId !== undefined && o.id !== q.orderId)) continue;
      if (q.clientOrderId !== undefined && o.clientOrderId !== q.clientOrderId) continue;
      if (skip > 0) skip -= 1;
      else out.push(toOrder(o));
    }
    return out;
  }

  /**
   * Deals newest first, as the venue pages them. Deals only ever append, so the same query over the same number of
   * deals has the same answer: the engine polls the newest page every second and it rarely changes. The answer is
   * frozen and the same array is handed out again while it holds, so a poll that finds nothing new copies nothing
   * (the deal tracker recognises a page it already read; see src/streams/deal-tracker.ts). When deals were added, the
   * first page is the new ones then the page before, without a walk over the filters again.
   */
  deals(q: OrderQuery = {}): readonly Deal[] {
    const count = this.#deals.length;
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    const slot = q.clientOrderId === undefined ? 0 : 1;
    const last = this.#lastDeals[slot];
    const same = last !== undefined && last.market === q.market && last.clientOrderId === q.clientOrderId && last.offset === offset && last.limit === limit;
    if (same && last.count === count) return last.page;
    // The same first page after new deals: they come first (newest), then the page before, cut to the limit.
    const page = Object.freeze(same && offset === 0 && slot === 0 ? this.#newerFirst(q.market, last, count, limit) : this.#dealsPage(q));
    this.#lastDeals[slot] = { count, market: q.market, clientOrderId: q.clientOrderId, offset, limit, page };
    return page;
  }

  /** The first page of the history (newest first), from the page before and the deals added since. */
  #newerFirst(market: string | undefined, before: DealsAnswer, count: number, limit: number): Deal[] {
    const out: Deal[] = [];
    for (let i = count - 1; i >= before.count && out.length < limit; i--) {
      const d = this.#deals[i]!;
      if (market === undefined || d.market === market) out.push(d);
    }
    for (let j = 0; j < before.page.length && out.length < limit; j++) out.push(before.page[j]!);
    return out;
  }

  #dealsPage(q: OrderQuery): Deal[] {
    const out: Deal[] = [];
    let skip = q.offset ?? 0;
    const limit = q.limit ?? 100;
    // a query by client order id reads that order's deals only (same order, same filters), not the whole history
    const deals = q.clientOrderId === undefined ? this.#deals : (this.#dealsByClientId.get(q.clientOrderId) ?? []);
    for (let i = deals.length - 1; i >= 0 && out.length < limit; i--) {
      const d = deals[i]!;
      if ((q.market !== undefined && d.market !== q.market) || (q.clientOrderId !== undefined && d.clientOrderId !== q.clientOrderId)) continue;
      if (skip > 0) skip -= 1;
      else out.push(d);
    }
    return out;
  }
}
