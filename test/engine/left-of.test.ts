import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leftOf } from '../../src/engine/journal-replay.js';
import { D, Decimal, ZERO } from '../../src/model/decimal.js';

const dec = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 30 }))
  .map(([m, scale]) => new Decimal(m.toString()).div(new Decimal(10).pow(scale)));

describe('leftOf', () => {
  it('is min(venue left, amount - dealt), never negative', () => {
    fc.assert(
      fc.property(dec, dec, fc.oneof(fc.constant(ZERO), dec), (amount, venueLeft, dealt) => {
        const byDeals = amount.minus(dealt);
        const want = Decimal.max(Decimal.min(byDeals, venueLeft), ZERO);
        expect(leftOf({ amount, venueLeft, dealt }).eq(want)).toBe(true);
      }),
    );
  });

  it('with nothing dealt, is the amount itself when below the venue left (no new Decimal)', () => {
    const amount = D('0.01');
    expect(leftOf({ amount, venueLeft: D('1'), dealt: ZERO })).toBe(amount);
    expect(leftOf({ amount, venueLeft: D('0.004'), dealt: ZERO }).toFixed()).toBe('0.004');
  });
});
