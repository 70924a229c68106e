import { ZERO, type Decimal } from '../model/decimal.js';
import { gt, lt } from '../model/decimal-compare.js';
import { ESTIMATE_REL_ERROR, estimate } from '../model/decimal-estimate.js';
import { dmul } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';

/** Bound on the relative error of amount × price in estimates (two estimates' and one double rounding), with room. */
const PRODUCT_REL = 4 * ESTIMATE_REL_ERROR;

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
  const lo = total * (1 - PRODUCT_REL);
  const hi = total * (1 + PRODUCT_REL);
  const minF = estimate(market.minTotal);
  // not below the min: total > min total, with both bounds (NaN anywhere fails the test: the product decides)
  const aboveMin = lo > minF + ESTIMATE_REL_ERROR * Math.abs(minF);
  if (aboveMin && total >= 0) {
    if (!hasMax) return undefined;
    const maxF = estimate(max);
    if (hi < maxF - ESTIMATE_REL_ERROR * Math.abs(maxF)) return undefined;
  }
  const exact = dmul(amount, price);
  if (lt(exact, market.minTotal)) return 'below';
  if (hasMax && gt(exact, max)) return 'above';
  return undefined;
}
