import type { Decimal } from '../model/decimal.js';
import type { SimOrder } from './sim-order.js';

/**
 * Untriggered stop-limit orders of one market. Activation follows exchange-facts §5: a buy when the
 * last trade price rises to or above its activation price, a sell when it falls to or below it.
 * Pending stops are few (bots place a handful), so a plain array scanned per price change is enough.
 */
export class StopOrders {
  private pending: SimOrder[] = [];

  get size(): number {
    return this.pending.length;
  }

  add(order: SimOrder): void {
    this.pending.push(order);
  }

  remove(order: SimOrder): boolean {
    const i = this.pending.indexOf(order);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    return true;
  }

  static triggers(order: SimOrder, last: Decimal): boolean {
    const act = order.activationPrice!;
    return order.side === 'buy' ? last.gte(act) : last.lte(act);
  }

  /** Removes and returns, oldest first, the stops the last price triggers. */
  takeTriggered(last: Decimal): SimOrder[] {
    if (this.pending.length === 0) return [];
    const fired: SimOrder[] = [];
    const kept: SimOrder[] = [];
    for (const o of this.pending) (StopOrders.triggers(o, last) ? fired : kept).push(o);
    if (fired.length > 0) this.pending = kept;
    return fired;
  }
}
