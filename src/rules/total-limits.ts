import { ZERO, type Decimal } from '../model/decimal.js';
import { gt, lt } from '../model/decimal-compare.js';
import { estimate, plainSign } from '../model/decimal-estimate.js';
import { dmul } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';

/** Error terms of (amount × price) − limit in estimates (plainSign): the product's two estimates and the rounding, with room. */
const PRODUCT_TERMS = 4;

/**
 * Where amount × price falls against the market's notional limits: below its min total, above its max total (a
 * positive one), or within (undefined), exactly as the product itself compares. The product is made only when the
 * estimates (decimal-estimate.ts) cannot show it plainly inside both limits, further than their error bounds: an
 * order's total is seldom anywhere near them, and every order is checked.
 */
export function totalAgainstLimits(market: Market, amount: Decimal, price: Decimal): 'below' | 'above' | undefined {
  const max = market.maxTotal;
  const hasMax = max !== null && gt(max, ZERO);
  const total = estimate(amount) * estimate(price);
  const minF = estimate(market.minTotal);
  // plainly not below the min, and (when there is one) plainly below the max: the product is not needed
  if (plainSign(total - minF, Math.abs(total) + Math.abs(minF), PRODUCT_TERMS) === 1) {
    if (!hasMax) return undefined;
    const maxF = estimate(max);
    if (plainSign(maxF - total, Math.abs(total) + Math.abs(maxF), PRODUCT_TERMS) === 1) return undefined;
  }
  const exact = dmul(amount, price);
  if (lt(exact, market.minTotal)) return 'below';
  if (hasMax && gt(exact, max)) return 'above';
  return undefined;
}
