import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import { totalAgainstLimits } from '../../src/rules/total-limits.js';
import { BTC_USDT, decimalArb } from './fixtures.js';

/** The rule as the product states it: below the min total, else above a positive max total, else within. */
function byProduct(m: Market, amount: Decimal, price: Decimal): 'below' | 'above' | undefined {
  const total = amount.times(price);
  if (total.lt(m.minTotal)) return 'below';
  if (m.maxTotal !== null && m.maxTotal.gt(ZERO) && total.gt(m.maxTotal)) return 'above';
  return undefined;
}

/** A limit, an amount and a price whose product is the limit scaled by a hair (or anywhere). */
const nearLimit = fc.constantFrom('1', '0.9999999999999999', '1.0000000000000001', '0.99999', '1.00001', '0.3', '7');

describe('totalAgainstLimits', () => {
  it("property (seeded): answers as the exact product compares, at a hair's breadth from either limit too", () => {
    const answers = new Map<string, number>();
    fc.assert(
      fc.property(
        decimalArb(8, true),
        fc.option(decimalArb(6, true), { nil: null }),
        decimalArb(8),
        fc.constantFrom('min', 'max', 'free'),
        nearLimit,
        decimalArb(8),
        (minTotal, maxTotal, price, at, scale, free) => {
          const m: Market = { ...BTC_USDT, minTotal, maxTotal };
          const limit = at === 'min' ? minTotal : at === 'max' && maxTotal !== null ? maxTotal : free;
          // amount = limit × scale / price: the product lands right next to the limit (60 digits: not always on it)
          const amount = at === 'free' ? free : limit.times(D(scale)).div(price);
          if (!amount.gt(ZERO)) return;
          const got = totalAgainstLimits(m, amount, price);
          expect(got).toBe(byProduct(m, amount, price));
          answers.set(String(got), (answers.get(String(got)) ?? 0) + 1);
        },
      ),
      { seed: 33, numRuns: 5000 },
    );
    // all three answers were given many times
    expect(answers.get('below')).toBeGreaterThan(300);
    expect(answers.get('above')).toBeGreaterThan(300);
    expect(answers.get('undefined')).toBeGreaterThan(300);
  });
});
