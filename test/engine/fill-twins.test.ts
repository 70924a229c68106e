import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasTwin } from '../../src/engine/fill-checks.js';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { testDeal } from '../helpers/deal.js';

/** Few values, spelled several ways ('0.10' is '0.1'), so twins and near-twins (one field apart) are common. */
const deal = fc
  .record({
    time: fc.constantFrom(1.5, 2, 2.000001, Number.NaN),
    amount: fc.constantFrom('0.1', '0.10', '0.2', '1e-1'),
    price: fc.constantFrom('100', '100.0', '101', '1E2'),
  })
  .map(({ time, amount, price }): Deal => testDeal(1, amount, { time, price: D(price), fee: D('0'), clientOrderId: 'x-1' }));

/** The set of signatures FillChecks kept before: time, amount and price as one string. */
const signature = (d: Deal): string => `${d.time}|${d.amount.toFixed()}|${d.price.toFixed()}`;

describe('FillChecks twin look-up (hasTwin) answers as the set of signatures did', () => {
  it('property (seeded): for any deals booked and any deal asked, twin exactly when its signature was booked', () => {
    fc.assert(
      fc.property(fc.array(deal, { maxLength: 6 }), deal, (booked, asked) => {
        const set = new Set(booked.map(signature));
        expect(hasTwin(booked.length > 0 ? booked : undefined, asked)).toBe(set.has(signature(asked)));
      }),
      { seed: 27, numRuns: 2000 },
    );
  });
});
