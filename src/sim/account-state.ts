import type { Deal, Order } from '../model/order.js';
import { type OrderOwner, type SimFill, type SimOrder, toDeal, toOrder } from './sim-order.js';
import type { DealsFilter, OpenOrdersFilter, SimAccount } from './sim-types.js';

/**
 * One account's orders and deals. Finished orders and deals are kept up to a bound (the synthetic
 * flow's account trades all day); client order ids stay "used" forever, as the venue requires.
 */
export class AccountState implements OrderOwner {
  /** Open orders in placement order (Map keeps insertion order: oldest first). */
  readonly open = new Map<number, SimOrder>();
  private readonly usedClientIds = new Set<string>();
  private readonly finished = new Map<number, SimOrder>();
  /** Finished order ids, oldest first from `finishedHead`: evicting from a Map's front is slow in V8. */
  private finishedIds: number[] = [];
  private finishedHead = 0;
  /** The account's side of each fill, oldest first (read newest first); parallel arrays avoid a wrapper object per deal. */
  private fills: SimFill[] = [];
  private makerRole: boolean[] = [];

  constructor(
    readonly account: SimAccount,
    /** The ledger's scale, to convert units to Decimals on the way out. */
    private readonly scale: number,
    private readonly maxFinished: number,
    private readonly maxDeals: number,
  ) {}

  isClientOrderIdUsed(id: string): boolean {
    return this.usedClientIds.has(id);
  }

  addOpen(order: SimOrder): void {
    this.open.set(order.id, order);
    if (order.clientOrderId !== '') this.usedClientIds.add(order.clientOrderId);
  }

  /** Records an order that finished (filled, cancelled) whether or not it ever rested. */
  finish(order: SimOrder): void {
    this.open.delete(order.id);
    if (order.clientOrderId !== '') this.usedClientIds.add(order.clientOrderId);
    this.finished.set(order.id, order);
    this.finishedIds.push(order.id);
    if (this.finished.size > this.maxFinished) {
      this.finished.delete(this.finishedIds[this.finishedHead++]!);
      if (this.finishedHead > 4096) {
        this.finishedIds = this.finishedIds.slice(this.finishedHead);
        this.finishedHead = 0;
      }
    }
  }

  addDeal(fill: SimFill, maker: boolean): void {
    this.fills.push(fill);
    this.makerRole.push(maker);
    // Trim in chunks so the amortised cost per deal stays O(1).
    if (this.fills.length > this.maxDeals + 1024) {
      this.fills = this.fills.slice(this.fills.length - this.maxDeals);
      this.makerRole = this.makerRole.slice(this.makerRole.length - this.maxDeals);
    }
  }

  findOpen(market: string, by: { orderId?: number; clientOrderId?: string }): SimOrder | undefined {
    if (by.orderId !== undefined) {
      const o = this.open.get(by.orderId);
      return o !== undefined && o.market === market ? o : undefined;
    }
    if (by.clientOrderId !== undefined && by.clientOrderId !== '') {
      for (const o of this.open.values()) if (o.clientOrderId === by.clientOrderId && o.market === market) return o;
    }
    return undefined;
  }

  /** An order by id, open or finished (finished only while within the history bound). */
  find(orderId: number): SimOrder | undefined {
    return this.open.get(orderId) ?? this.finished.get(orderId);
  }

  /** Finished orders as they are kept, newest first (the executed-orders history reads them). */
  *finishedNewestFirst(): Generator<SimOrder> {
    const all = [...this.finished.values()];
    for (let i = all.length - 1; i >= 0; i--) yield all[i]!;
  }

  finishedOrders(): Order[] {
    return [...this.finished.values()].reverse().map((o) => toOrder(o, this.scale));
  }

  openOrders(f: OpenOrdersFilter = {}): Order[] {
    const out: Order[] = [];
    const all = [...this.open.values()];
    const offset = f.offset ?? 0;
    const limit = f.limit ?? 50;
    let skipped = 0;
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const o = all[i]!;
      if (f.market !== undefined && o.market !== f.market) continue;
      if (f.orderId !== undefined && o.id !== f.orderId) continue;
      if (f.clientOrderId !== undefined && o.clientOrderId !== f.clientOrderId) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(toOrder(o, this.scale));
    }
    return out;
  }

  deals(f: DealsFilter = {}): Deal[] {
    const out: Deal[] = [];
    const offset = f.offset ?? 0;
    const limit = f.limit ?? 100;
    let skipped = 0;
    for (let i = this.fills.length - 1; i >= 0 && out.length < limit; i--) {
      const fill = this.fills[i]!;
      const maker = this.makerRole[i]!;
      if (f.market !== undefined && fill.market !== f.market) continue;
      if (f.clientOrderId !== undefined && (maker ? fill.maker : fill.taker).clientOrderId !== f.clientOrderId) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(toDeal(fill, maker ? 'maker' : 'taker', this.scale));
    }
    return out;
  }
}
