import { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';

// Steps are powers of ten; precisions are small integers, so a cache keyed by precision avoids
// rebuilding the same Decimal on every order of a hot path (sim matching, backtest fills).
const stepCache = new Map<number, Decimal>();

function stepOf(precision: number): Decimal {
  let step = stepCache.get(precision);
  if (step === undefined) {
    step = new Decimal(10).pow(-precision);
    stepCache.set(precision, step);
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
  if (!value.isFinite() || step.isZero()) return false;
  return value.mod(step).isZero();
}
