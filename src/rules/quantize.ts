import { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { amountStep, priceStep, roundToStep, type RoundingMode } from './steps.js';
import { validateOrder } from './validate-order.js';
import type { RuleViolation } from './violation.js';

/**
 * How a price is put on the step. `passive` (default): away from the spread, so a buy never rounds up and
 * a sell never rounds down; `aggressive`: toward it; `down`/`up`: absolute; `nearest`: half up.
 */
export type PriceRounding = 'passive' | 'aggressive' | 'down' | 'up' | 'nearest';

export type QuantizeResult = { ok: true; price: Decimal; amount: Decimal } | { ok: false; violations: RuleViolation[] };

function priceRoundingMode(side: Side, rounding: PriceRounding): RoundingMode {
  switch (rounding) {
    case 'passive':
      return side === 'buy' ? Decimal.ROUND_FLOOR : Decimal.ROUND_CEIL;
    case 'aggressive':
      return side === 'buy' ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR;
    case 'down':
      return Decimal.ROUND_FLOOR;
    case 'up':
      return Decimal.ROUND_CEIL;
    case 'nearest':
      return Decimal.ROUND_HALF_UP;
  }
}

/**
 * Puts an intent's price and amount on the market's steps, without validating: price with `rounding`
 * (default passive), amount always DOWN; a non-finite value is left as it is (validation rejects it).
 * `quantizeOrder` is this plus the rules check; the engine's gate uses it with its one full check.
 */
export function toMarketSteps(
  market: Market,
  req: { side: Side; price: Decimal; amount: Decimal },
  options: { rounding?: PriceRounding } = {},
): { price: Decimal; amount: Decimal } {
  const price = req.price.isFinite() ? roundToStep(req.price, priceStep(market), priceRoundingMode(req.side, options.rounding ?? 'passive')) : req.price;
  const amount = req.amount.isFinite() ? roundToStep(req.amount, amountStep(market), Decimal.ROUND_DOWN) : req.amount;
  return { price, amount };
}

/**
 * Puts an intent on the market's steps (`toMarketSteps`), then checks the result with `validateOrder`, so
 * what comes back ok is exactly what the venue accepts; anything that lands at zero, below a minimum or
 * above the max total is rejected with the venue's reasons, never bumped up. With the default rounding the
 * order's commitment never grows: the amount never increases, a buy's price and notional never increase, a
 * sell's price never decreases. Idempotent: quantizing an ok result gives it back unchanged.
 */
export function quantizeOrder(
  market: Market,
  req: { side: Side; price: Decimal; amount: Decimal },
  options: { rounding?: PriceRounding } = {},
): QuantizeResult {
  const { price, amount } = toMarketSteps(market, req, options);
  const violations = validateOrder(market, { market: market.name, side: req.side, price, amount });
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, price, amount };
}
