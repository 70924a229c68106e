import { ZERO } from '../model/decimal.js';
import type { Decimal } from '../model/decimal.js';
import { dadd, dmul } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';
import type { OrderRequest, Side } from '../model/order.js';

/** Per-strategy risk limits; every one is optional (absent = no limit). Money values are in the market's money asset. */
export interface RiskLimits {
  /** Largest amount × price of a single order. */
  readonly maxOrderNotional?: Decimal | undefined;
  /**
   * Largest inventory per asset, keyed by ticker. For the market's stock asset: the worst-case absolute base
   * position (position + every open order on that side + the new order, all filled). For the money asset: that
   * same worst-case position valued at the order's price.
   */
  readonly maxInventory?: Readonly<Record<string, Decimal>> | undefined;
  /** Most live orders (pending, open, partially filled, unknown) at once. */
  readonly maxOpenOrders?: number | undefined;
  /** Most orders placed in any sliding 60 s window. */
  readonly maxOrdersPerMinute?: number | undefined;
  /** Net loss (realised − fees + unrealised at mid) at which the strategy is halted and its orders cancelled. */
  readonly maxLoss?: Decimal | undefined;
  /**
   * The price band (see price-band.ts): an order priced further than this fraction from the last sane mid (or, with
   * none, the market's last trade) is refused, `risk:price-band`. The one limit that is on when absent: absent means
   * DEFAULT_MAX_DEVIATION (0.05); `false` turns it off.
   */
  readonly maxDeviation?: Decimal | false | undefined;
}

/** What the risk check needs to know about one strategy right now. */
export interface RiskState {
  readonly position: Decimal;
  /** Sum of `left` of the live buy / sell orders. */
  readonly openBuyLeft: Decimal;
  readonly openSellLeft: Decimal;
  readonly openOrders: number;
  /** Engine times (ms) of the orders placed recently (older than 60 s may be included; they are ignored). */
  readonly recentOrderTimes: readonly number[];
  readonly halted: boolean;
}

/** What the risk check reads of an order: the OrderRequest's side, price and amount (model/order.ts). */
export type RiskOrder = Pick<OrderRequest, 'side' | 'price' | 'amount'>;

export type RiskDecision = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly message: string };

export const ORDER_RATE_WINDOW_MS = 60_000;

export function ordersInWindow(times: readonly number[], nowMs: number, windowMs = ORDER_RATE_WINDOW_MS): number {
  let n = 0;
  for (const t of times) if (t > nowMs - windowMs) n += 1;
  return n;
}

/**
 * Drops the times at the front of `times` (oldest first, as the engine appends them) that left the window, in place.
 * In place and from the front only: a fresh filtered copy per order made the engine allocate (and the GC copy)
 * the whole last minute of order times on every intent. A time out of order behind a newer one stays a little
 * longer; `ordersInWindow` ignores it anyway.
 */
export function pruneOrderTimes(times: number[], nowMs: number, windowMs = ORDER_RATE_WINDOW_MS): void {
  const cutoff = nowMs - windowMs;
  let expired = 0;
  while (expired < times.length && times[expired]! <= cutoff) expired += 1;
  if (expired > 0) times.splice(0, expired);
}

const ok: RiskDecision = { ok: true };
const no = (reason: string, message: string): RiskDecision => ({ ok: false, reason, message });

/** Pure pre-trade check of one (already quantized) order. The first limit broken is the reason. */
export function checkOrderRisk(limits: RiskLimits, market: Market, state: RiskState, order: RiskOrder, nowMs: number): RiskDecision {
  if (state.halted) return no('halted', 'strategy is halted by its loss limit');
  // the notional only where a limit reads it (most strategies set none; the gate asks this for every place)
  if (limits.maxOrderNotional !== undefined) {
    const notional = dmul(order.amount, order.price);
    if (notional.gt(limits.maxOrderNotional))
      return no('max-order-notional', `order notional ${notional.toFixed()} above ${limits.maxOrderNotional.toFixed()}`);
  }
  if (limits.maxOpenOrders !== undefined && state.openOrders + 1 > limits.maxOpenOrders) {
    return no('max-open-orders', `${state.openOrders} orders open, limit ${limits.maxOpenOrders}`);
  }
  if (limits.maxOrdersPerMinute !== undefined) {
    const recent = ordersInWindow(state.recentOrderTimes, nowMs);
    if (recent + 1 > limits.maxOrdersPerMinute) {
      return no('max-orders-per-minute', `${recent} orders in the last minute, limit ${limits.maxOrdersPerMinute}`);
    }
  }
  if (limits.maxInventory !== undefined) {
    const worst =
      order.side === 'buy' ? state.position.plus(state.openBuyLeft).plus(order.amount) : state.position.minus(state.openSellLeft).minus(order.amount);
    // Only orders that push the worst case further out are refused: an order reducing exposure always passes.
    const grows = order.side === 'buy' ? worst.isPositive() : worst.isNegative();
    const stockLimit = limits.maxInventory[market.stock];
    if (grows && stockLimit !== undefined && worst.abs().gt(stockLimit)) {
      return no('max-inventory', `${market.stock} inventory could reach ${worst.toFixed()}, limit ${stockLimit.toFixed()}`);
    }
    const moneyLimit = limits.maxInventory[market.money];
    const exposure = worst.abs().times(order.price);
    if (grows && moneyLimit !== undefined && exposure.gt(moneyLimit)) {
      return no('max-inventory', `${market.money} exposure could reach ${exposure.toFixed()}, limit ${moneyLimit.toFixed()}`);
    }
  }
  return ok;
}

/** True when net PnL has reached the loss limit. */
export function lossLimitBreached(limits: RiskLimits, netPnl: Decimal): boolean {
  return limits.maxLoss !== undefined && netPnl.lte(limits.maxLoss.neg());
}

/** The risk state of one strategy from its live orders and position. */
export function riskStateOf(
  live: readonly { readonly side: Side; readonly left: Decimal }[],
  position: Decimal,
  recentOrderTimes: readonly number[],
  halted: boolean,
): RiskState {
  let openBuyLeft = ZERO;
  let openSellLeft = openBuyLeft;
  for (const o of live) {
    if (o.side === 'buy') openBuyLeft = dadd(openBuyLeft, o.left);
    else openSellLeft = dadd(openSellLeft, o.left);
  }
  return { position, openBuyLeft, openSellLeft, openOrders: live.length, recentOrderTimes, halted };
}
