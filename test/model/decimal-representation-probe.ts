/**
 * Run by decimal-representation.test.ts in a fresh process (node --allow-natives-syntax --import tsx): whether the
 * Decimals built from parts outside decimal.js hold `e` and `d` as V8 holds decimal.js's own. A fresh process,
 * because a field's representation belongs to every Decimal of the process: one NaN Decimal made by any earlier
 * test (e = NaN, a double) would change it for all. Prints the first Decimal held otherwise, or "ok".
 */
import { runInThisContext } from 'node:vm';
import fc from 'fast-check';
import { D, Decimal } from '../../src/model/decimal.js';
import { decimalOfParts } from '../../src/model/decimal-parts.js';
import { dadd, dmul, dsub } from '../../src/model/decimal-small.js';
import { fromUnits } from '../../src/sim/units.js';

const isSmi = runInThisContext('(x) => %IsSmi(x)') as (x: unknown) => boolean;
const hasSmiElements = runInThisContext('(a) => %HasSmiElements(a)') as (a: unknown) => boolean;

function check(what: string, x: Decimal): void {
  const p = x as unknown as { s: number; e: number; d: number[] | null };
  const problem = !isSmi(p.s) ? 's' : !isSmi(p.e) ? 'e' : p.d !== null && !hasSmiElements(p.d) ? 'd' : undefined;
  if (problem !== undefined) throw new Error(`${what} = ${x.toFixed()}: ${problem} is not held as decimal.js holds it`);
}

const small = fc
  .tuple(fc.boolean(), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: -30, max: 10 }))
  .map(([neg, m, q]) => D(`${neg ? '-' : ''}${m}e${q}`));

try {
  // the reference: decimal.js's own
  for (const text of ['0.5', '0.01', '61234.56', '-0.00000123', '123456789.123456789']) check(`new Decimal(${text})`, new Decimal(text));
  // a value below 1 with no leading zero word: the exponent -0 once made a double
  check('fromUnits(50000000n, 8)', fromUnits(50000000n, 8));
  fc.assert(
    fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 22 }), (units, scale) => {
      check(`fromUnits(${units}n, ${scale})`, fromUnits(units, scale));
    }),
    { seed: 2723, numRuns: 400 },
  );
  fc.assert(
    fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: -40, max: 20 }), (m, q) => {
      check(`decimalOfParts(1, ${m}, ${q})`, decimalOfParts(1, m, q));
    }),
    { seed: 2724, numRuns: 400 },
  );
  fc.assert(
    fc.property(small, small, (a, b) => {
      check('dadd', dadd(a, b));
      check('dsub', dsub(a, b));
      check('dmul', dmul(a, b));
    }),
    { seed: 2725, numRuns: 400 },
  );
  console.log('ok');
} catch (error) {
  console.log(error instanceof Error ? error.message : String(error));
}
