import type { Decimal } from '../model/decimal.js';
import type { OrderTracker } from './order-tracker.js';
import { riskStateOf, type RiskState } from './risk-limits.js';

/**
 * A strategy's RiskState whose live-order figures (openBuyLeft, openSellLeft, openOrders) are worked out from the
 * tracker when first read, by riskStateOf over the strategy's live orders, as the engine made them for every place:
 * the gate reads them only for the limits that use them (max-inventory, max-open-orders), and a strategy without
 * those (the market maker's usual setting) then walks no live orders per place. Read within the place that made it
 * (the gate's call, where the tracker does not change), it gives every figure riskStateOf gives.
 */
export class LazyRiskState implements RiskState {
  #live: RiskState | undefined;

  constructor(
    private readonly tracker: OrderTracker,
    private readonly strategyId: string,
    readonly position: Decimal,
    readonly recentOrderTimes: readonly number[],
    readonly halted: boolean,
  ) {}

  get openBuyLeft(): Decimal {
    return this.#ofLive().openBuyLeft;
  }

  get openSellLeft(): Decimal {
    return this.#ofLive().openSellLeft;
  }

  get openOrders(): number {
    return this.#ofLive().openOrders;
  }

  #ofLive(): RiskState {
    this.#live ??= riskStateOf(this.tracker.live(this.strategyId), this.position, this.recentOrderTimes, this.halted);
    return this.#live;
  }
}
