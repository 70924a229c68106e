import { Decimal, fmt } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { amountStep, priceStep } from './steps.js';
import { validateOrder } from './validate-order.js';
import type { RuleViolation } from './violation.js';

/**
 * How a price is put on the step. `passive` (default): away from the spread, so a buy never rounds up and
 * a sell never rounds down; `aggressive`: toward it; `down`/`up`: absolute; `nearest`: half up.
 */
export type PriceRounding = 'passive' | 'aggressive' | 'down' | 'up' | 'nearest';

/** decimal.js rounding constant (0-8); the clone in model/ exposes it only as a value. */
type RoundingMode = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

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

/** `value` rounded to a whole multiple of `step` (a power of ten) with the given mode. */
function toStep(value: Decimal, step: Decimal, mode: RoundingMode): Decimal {
  return value.div(step).toDecimalPlaces(0, mode).mul(step);
}

/**
 * Puts an intent on the market's steps: price with `rounding` (default passive), amount always DOWN.
 * The result is then checked with `validateOrder`, so what comes back ok is exactly what the venue accepts;
 * anything that lands at zero, below a minimum or above the max total is rejected with the venue's
 * reasons, never bumped up. With the default rounding the order's commitment never grows: the amount
 * never increases, a buy's price and notional never increase, a sell's price never decreases.
 * Idempotent: quantizing an ok result gives it back unchanged.
 */
export function quantizeOrder(
  market: Market,
  req: { side: Side; price: Decimal; amount: Decimal },
  options: { rounding?: PriceRounding } = {},
): QuantizeResult {
  const price = req.price.isFinite() ? toStep(req.price, priceStep(market), priceRoundingMode(req.side, options.rounding ?? 'passive')) : req.price;
  const amount = req.amount.isFinite() ? toStep(req.amount, amountStep(market), Decimal.ROUND_DOWN) : req.amount;
  const violations = validateOrder(market, { market: market.name, side: req.side, price: fmt(price), amount: fmt(amount) });
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, price, amount };
}
