import type { Deal, Order } from '../model/order.js';
import { type SimDeal, type SimOrder, toDeal, toOrder } from './sim-order.js';
import type { DealsFilter, OpenOrdersFilter, SimAccount } from './sim-types.js';

/**
 * One account's orders and deals. Finished orders and deals are kept up to a bound (the synthetic
 * flow's account trades all day); client order ids stay "used" forever, as the venue requires.
 */
export class AccountState {
  /** Open orders in placement order (Map keeps insertion order: oldest first). */
  readonly open = new Map<number, SimOrder>();
  private readonly usedClientIds = new Set<string>();
  private readonly finished = new Map<number, SimOrder>();
  /** Oldest first; read newest first. */
  private readonly dealLog: SimDeal[] = [];

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
    if (this.finished.size > this.maxFinished) {
      const oldest = this.finished.keys().next().value as number;
      this.finished.delete(oldest);
    }
  }

  addDeal(deal: SimDeal): void {
    this.dealLog.push(deal);
    // Trim in chunks so the amortised cost per deal stays O(1).
    if (this.dealLog.length > this.maxDeals + 1024) this.dealLog.splice(0, this.dealLog.length - this.maxDeals);
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
    for (let i = this.dealLog.length - 1; i >= 0 && out.length < limit; i--) {
      const d = this.dealLog[i]!;
      if (f.market !== undefined && d.market !== f.market) continue;
      if (f.clientOrderId !== undefined && d.clientOrderId !== f.clientOrderId) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(toDeal(d, this.scale));
    }
    return out;
  }
}
