import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, Decimal } from '../../src/model/decimal.js';
import { decimalOfParts } from '../../src/model/decimal-parts.js';
import { dadd, dmul, dsub } from '../../src/model/decimal-small.js';
import { fromUnits } from '../../src/sim/units.js';

/*
 * The Decimals built from parts outside decimal.js (decimal-parts.ts, sim/units.ts) hold the same values as
 * decimal.js's own (units.test.ts, decimal-small.test.ts) and must also be held the way V8 holds decimal.js's own:
 * `e` a small integer and `d` an array of small integers. A double `e` changes the field's representation in every
 * Decimal's map (all of them deprecated mid-run), an array of doubles gives every reader of `d` a second array
 * kind; either costs a fresh process's first replay its optimised code. Invisible to JavaScript, so V8's own
 * checks are asked (a flag set at run time, read when the checks below are compiled).
 */
setFlagsFromString('--allow-natives-syntax');
const isSmi = runInThisContext('(x) => %IsSmi(x)') as (x: unknown) => boolean;
const hasSmiElements = runInThisContext('(a) => %HasSmiElements(a)') as (a: unknown) => boolean;

function heldAsDecimalJsHoldsIt(x: Decimal): void {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  expect(isSmi(p.s)).toBe(true);
  expect(isSmi(p.e)).toBe(true);
  if (p.d !== null) expect(hasSmiElements(p.d)).toBe(true);
}

const small = fc
  .tuple(fc.boolean(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: -30, max: 10 }))
  .map(([neg, m, q]) => D(`${neg ? '-' : ''}${m}e${q}`));

describe('Decimals built from parts are held as decimal.js holds its own', () => {
  it('decimal.js itself: small-integer exponent and words (the reference the others are held to)', () => {
    for (const text of ['0.5', '0.01', '61234.56', '-0.00000123', '123456789.123456789']) heldAsDecimalJsHoldsIt(new Decimal(text));
  });

  it('fromUnits: small-integer exponent (no -0 on the way) and words, both number and digit paths', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 22 }), (units, scale) => {
        heldAsDecimalJsHoldsIt(fromUnits(units, scale));
      }),
      { seed: 2723, numRuns: 400 },
    );
    // a value below 1 with no leading zero word: the exponent the -0 once made a double
    heldAsDecimalJsHoldsIt(fromUnits(50000000n, 8));
  });

  it('decimalOfParts and the small sums and products: small-integer words', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: -40, max: 20 }), (m, q) => {
        heldAsDecimalJsHoldsIt(decimalOfParts(1, m, q));
      }),
      { seed: 2724, numRuns: 400 },
    );
    fc.assert(
      fc.property(small, small, (a, b) => {
        heldAsDecimalJsHoldsIt(dadd(a, b));
        heldAsDecimalJsHoldsIt(dsub(a, b));
        heldAsDecimalJsHoldsIt(dmul(a, b));
      }),
      { seed: 2725, numRuns: 400 },
    );
  });
});
