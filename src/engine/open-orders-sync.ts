import type { Order } from '../model/order.js';
import { orderAnswerProblems } from './answer-check.js';
import type { FillChecks } from './fill-checks.js';
import type { Stamped } from './free-funds.js';
import type { OrderTracker } from './order-tracker.js';
import type { Reconciler } from './reconcile.js';

/** What an open-orders snapshot is applied to. */
export interface OpenOrdersSyncPort {
  readonly tracker: OrderTracker;
  readonly fills: FillChecks;
  readonly reconciler: Reconciler;
  /** Reports a venue answer that is not taken as fact (see ImplausibleAnswers). */
  readonly implausible: (strategyId: string, clientOrderId: string, detail: string) => void;
}

/**
 * An open-orders snapshot: updates `left`, and reconciles our orders that vanished (filled, cancelled by the venue,
 * or hidden by a lagging list: the reconcile needs a positive answer). A record that contradicts our order is not
 * applied: the order counts as present and is reconciled.
 */
export function syncOpenOrders(p: OpenOrdersSyncPort, market: string, snap: Stamped<Order[]>): void {
  const present = new Set<string>();
  for (const v of snap.value) {
    if (!v.clientOrderId) continue;
    present.add(v.clientOrderId);
    const tracked = p.tracker.get(v.clientOrderId);
    if (tracked === undefined) continue;
    const problems = orderAnswerProblems(tracked, v);
    if (problems.length > 0) {
      p.implausible(tracked.strategyId, v.clientOrderId, `open-orders record: ${problems.join('; ')}`);
      void p.reconciler.reconcile(v.clientOrderId);
      continue;
    }
    p.tracker.applyVenueOrder(v.clientOrderId, v);
    p.fills.checkExecuted(tracked, v.dealStock, snap.startedAt);
  }
  for (const o of p.tracker.liveOrders()) {
    if (o.market !== market || (o.state !== 'open' && o.state !== 'partially-filled')) continue;
    if (o.confirmedAt === undefined || o.confirmedAt >= snap.startedAt || present.has(o.clientOrderId)) continue;
    void p.reconciler.reconcile(o.clientOrderId);
  }
}
