import { ZERO, type Decimal } from '../model/decimal.js';
import { dadd } from '../model/decimal-small.js';
import { riskLeftOf, type TrackedOrder } from './order-tracker.js';
import type { RiskState } from './risk-limits.js';

/**
 * `riskStateOf(tracker.live(strategyId), …)` read straight off the tracked orders: a view's `side` is its order's and
 * its `left` is `riskLeftOf(order)` (order-tracker.ts, buildView), summed in the same order (the live index's). The
 * gate asks it for every place; the views' array it replaces was built only to be summed and dropped.
 */
export function liveRiskState(
  live: Iterable<TrackedOrder>,
  strategyId: string,
  position: Decimal,
  recentOrderTimes: readonly number[],
  halted: boolean,
): RiskState {
  let openBuyLeft = ZERO;
  let openSellLeft = openBuyLeft;
  let openOrders = 0;
  for (const o of live) {
    if (o.strategyId !== strategyId) continue;
    openOrders += 1;
    if (o.side === 'buy') openBuyLeft = dadd(openBuyLeft, riskLeftOf(o));
    else openSellLeft = dadd(openSellLeft, riskLeftOf(o));
  }
  return { position, openBuyLeft, openSellLeft, openOrders, recentOrderTimes, halted };
}
