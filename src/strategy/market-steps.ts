import { ZERO, type Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { toMarketSteps, type PriceRounding } from '../rules/quantize.js';

export { amountStep, priceStep } from '../rules/steps.js';
export type { PriceRounding } from '../rules/quantize.js';

/**
 * `price` on the market's price step (`priceStep(market)`), the way the engine puts an intent's price there before
 * sending it (src/rules/quantize.ts, the one quantizer): by default passive, away from the spread, so a buy never
 * rounds up and a sell never rounds down; `rounding` chooses otherwise. A strategy that rounds its own prices with
 * this knows the price that will be sent, e.g. to compare it with a resting order's.
 */
export function roundPrice(market: Market, side: Side, price: Decimal, rounding: PriceRounding = 'passive'): Decimal {
  return toMarketSteps(market, { side, price, amount: ZERO }, { rounding }).price;
}

/** `amount` on the market's amount step (`amountStep(market)`), rounded down as the engine does: never more than asked. */
export function roundAmount(market: Market, amount: Decimal): Decimal {
  return toMarketSteps(market, { side: 'buy', price: ZERO, amount }).amount;
}
