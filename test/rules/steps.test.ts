import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, Decimal } from '../../src/model/decimal.js';
import { amountStep, isOnStep, minPrice, priceStep, roundToStep, type RoundingMode } from '../../src/rules/index.js';
import { BTC_USDT, decimalArb } from './fixtures.js';

describe('steps', () => {
  it('derives the steps from the precisions', () => {
    expect(amountStep(BTC_USDT).toFixed()).toBe('0.000001');
    expect(priceStep(BTC_USDT).toFixed()).toBe('0.01');
    expect(amountStep({ ...BTC_USDT, stockPrec: 0 }).toFixed()).toBe('1');
    expect(priceStep({ ...BTC_USDT, moneyPrec: 8 }).toFixed()).toBe('0.00000001');
  });

  it('defaults the minimum price to one price step', () => {
    expect(minPrice(BTC_USDT).toFixed()).toBe('0.01');
    expect(minPrice({ ...BTC_USDT, minPrice: D('0.5') }).toFixed()).toBe('0.5');
  });

  it.each([
    ['0.03', '0.01', true],
    ['0.035', '0.01', false],
    ['30000', '0.01', true],
    ['0', '0.01', true],
    ['-0.02', '0.01', true],
    ['0.30000000000000004', '0.01', false],
    ['1.5', '1', false],
  ])('isOnStep(%s, %s) = %s', (value, step, expected) => {
    expect(isOnStep(D(value), D(step))).toBe(expected);
  });

  it('rejects non-finite values and a zero step', () => {
    expect(isOnStep(D(Infinity), D('0.01'))).toBe(false);
    expect(isOnStep(D('1'), D(0))).toBe(false);
  });

  // A market's own steps take a fast path (count decimals, round to decimals); a step built elsewhere, equal in
  // value, takes the general one (mod, divide-round-multiply). Both must agree on every value and mode.
  const signedArb = fc.tuple(decimalArb(14, true), fc.boolean()).map(([d, neg]) => (neg ? d.neg() : d));
  const precArb = fc.integer({ min: 0, max: 10 });
  const modeArb = fc.integer({ min: 0, max: 8 }).map((m) => m as RoundingMode);
  const marketStep = (p: number) => amountStep({ ...BTC_USDT, stockPrec: p });

  it('isOnStep: a market step (counting decimals) agrees with the general mod check', () => {
    fc.assert(
      fc.property(signedArb, precArb, (v, p) => {
        expect(isOnStep(v, marketStep(p))).toBe(v.mod(new Decimal(10).pow(-p)).isZero());
      }),
      { numRuns: 3000 },
    );
  });

  it('roundToStep: a market step (rounding to decimals) agrees with divide, round, multiply', () => {
    fc.assert(
      fc.property(signedArb, precArb, modeArb, (v, p, mode) => {
        const general = roundToStep(v, new Decimal(10).pow(-p), mode);
        const fast = roundToStep(v, marketStep(p), mode);
        expect(fast.eq(general)).toBe(true);
        expect(fast.toFixed()).toBe(general.toFixed());
        expect(isOnStep(fast, marketStep(p))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('roundToStep on a value already on the step', () => {
  it('gives the value itself (no new Decimal), which is what rounding it gives', () => {
    const modes: RoundingMode[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    fc.assert(
      fc.property(decimalArb(10), fc.integer({ min: 0, max: 8 }), fc.constantFrom(...modes), (v, p, mode) => {
        const step = priceStep({ ...BTC_USDT, moneyPrec: p });
        const rounded = roundToStep(v, step, mode);
        expect(rounded.eq(v.toDecimalPlaces(p, mode))).toBe(true);
        expect(rounded === v).toBe(v.decimalPlaces() <= p);
      }),
    );
  });
});
