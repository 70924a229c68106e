import { Decimal } from '../model/decimal.js';
import { roundToPlacesSmall } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';

/** decimal.js rounding constant (0-8); the clone in model/ exposes it only as a value. */
export type RoundingMode = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

// Steps are powers of ten; precisions are small integers, so a cache keyed by precision avoids
// rebuilding the same Decimal on every order of a hot path (sim matching, backtest fills).
const stepCache = new Map<number, Decimal>();
/** The cached steps 10^-p with p a whole number >= 0, and their p: a value is on such a step iff it has at most p decimals. */
const decimalsOfStep = new WeakMap<Decimal, number>();

function stepOf(precision: number): Decimal {
  let step = stepCache.get(precision);
  if (step === undefined) {
    step = new Decimal(10).pow(-precision);
    stepCache.set(precision, step);
    if (Number.isInteger(precision) && precision >= 0) decimalsOfStep.set(step, precision);
  }
  return step;
}

/** Smallest amount increment: 10^-stockPrec. */
export function amountStep(m: Market): Decimal {
  return stepOf(m.stockPrec);
}

/** Smallest price increment: 10^-moneyPrec. */
export function priceStep(m: Market): Decimal {
  return stepOf(m.moneyPrec);
}

/** Smallest accepted price: the market's own when it has one, otherwise one price step. */
export function minPrice(m: Market): Decimal {
  return m.minPrice ?? priceStep(m);
}

/** True when `value` is a whole multiple of `step` (exact decimal arithmetic, no float tolerance). */
export function isOnStep(value: Decimal, step: Decimal): boolean {
  if (!value.isFinite()) return false;
  // A market's own step (10^-p): counting decimals is exact and avoids a division on every order.
  const decimals = decimalsOfStep.get(step);
  if (decimals !== undefined) return value.decimalPlaces() <= decimals;
  if (step.isZero()) return false;
  return value.mod(step).isZero();
}

/**
 * `value` rounded to a whole multiple of `step` with a decimal.js rounding mode (0-8). Exact: for a market's
 * own step (10^-p) it is rounding to p decimals; any other step divides, rounds to a whole number and multiplies.
 */
export function roundToStep(value: Decimal, step: Decimal, mode: RoundingMode): Decimal {
  const decimals = decimalsOfStep.get(step);
  // a value on the step already is its own rounding (decimalPlaces is NaN for NaN and ±Infinity: those are rounded as
  // before); most amounts come on the step, and every order is rounded
  if (decimals !== undefined) {
    // a price or amount of few digits on integers (model/decimal-round.ts: decimal.js's very result; the value itself
    // when it is on the step already), else decimal.js
    const small = roundToPlacesSmall(value, decimals, mode);
    if (small !== undefined) return small;
    return value.decimalPlaces() <= decimals ? value : value.toDecimalPlaces(decimals, mode);
  }
  return value.div(step).toDecimalPlaces(0, mode).mul(step);
}
