import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Decimal } from '../../src/model/decimal.js';
import marketMaker from '../../strategies/market-maker/index.js';
import { followInventory, quoteConstants, type QuoteConstants } from '../../strategies/market-maker/quote-constants.js';

const params = fc.record({
  spread: fc.constantFrom('0.0004', '0.002', '0.0123456789'),
  levels: fc.integer({ min: 1, max: 3 }),
  levelSpacing: fc.constantFrom('0.001', '0.00037'),
  inventorySkew: fc.constantFrom('0.001', '0', '0.0333'),
  maxInventory: fc.constantFrom('0.1', '0.07'),
});
/** Inventories a run comes back to, both zeros, and values beyond the maximum either way. */
const inventory = fc.constantFrom('0', '-0', '0.01', '-0.01', '0.02', '0.1', '-0.1', '0.0123457', '-0.5', '0.7').map((s) => D(s));

const parts = (x: Decimal) => {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  return { s: p.s, e: p.e, d: p.d };
};
/** Everything followInventory sets, Decimals by their parts. */
const derived = (c: QuoteConstants) => ({
  centre: parts(c.last.centreFactor),
  bids: c.last.bidFactors.map(parts),
  asks: c.last.askFactors.map(parts),
  digits: c.last.factorDigits,
  bidsF: c.last.bidFactorsF,
  asksF: c.last.askFactorsF,
  buys: c.last.buys,
  sells: c.last.sells,
});

describe('the market maker: the inventory-derived factors', () => {
  it('property (seeded): an inventory seen before gets the very factors made for it when new', () => {
    fc.assert(
      fc.property(params, fc.array(inventory, { minLength: 1, maxLength: 30 }), (raw, inventories) => {
        const p = marketMaker.params.parse(raw);
        const c = quoteConstants(p);
        for (const inv of inventories) {
          followInventory(c, p, inv);
          // params never used before: nothing kept, the factors made afresh
          const fresh = marketMaker.params.parse(raw);
          const f = quoteConstants(fresh);
          followInventory(f, fresh, inv);
          expect(derived(c)).toEqual(derived(f));
          expect(c.lastInventory?.eq(inv)).toBe(true);
        }
      }),
      { numRuns: 500, seed: 27 },
    );
  });
});
