import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, Decimal, fmt } from '../../src/model/decimal.js';
import { fromUnits, scaledSafeInteger, toUnits } from '../../src/sim/units.js';

/** Reference: the exact value × 10^scale through decimal.js itself. */
const reference = (d: Decimal, scale: number): Decimal => d.mul(new Decimal(10).pow(scale));

const decimalText = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 30 })).map(([neg, digits, places]) => {
  const s = digits.toString().padStart(places + 1, '0');
  const text = places === 0 ? s : `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}`;
  return neg && digits !== 0n ? `-${text}` : text;
});

/** Small values (below 2^53 units) take the number path of fromUnits; large ones the string path. */
const smallDecimalText = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 2n ** 53n + 5n }), fc.integer({ min: 0, max: 22 })).map(([neg, digits, places]) => {
  const s = digits.toString().padStart(places + 1, '0');
  const text = places === 0 ? s : `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}`;
  return neg && digits !== 0n ? `-${text}` : text;
});

describe('units (exact fixed point for the matching hot path)', () => {
  it('toUnits / fromUnits round-trip exactly and agree with decimal.js', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText, smallDecimalText), fc.integer({ min: 0, max: 36 }), (text, scale) => {
        const d = D(text);
        if (d.decimalPlaces() > scale) {
          expect(() => toUnits(d, scale)).toThrow(/decimal places/);
          return;
        }
        const u = toUnits(d, scale);
        expect(u.toString()).toBe(reference(d, scale).toFixed());
        const back = fromUnits(u, scale);
        expect(fmt(back)).toBe(fmt(d));
        // Same internal layout as decimal.js's own parser, so every operation behaves identically.
        const parts = (x: Decimal) => {
          const p = x as unknown as { s: number; e: number; d: number[] };
          return { s: p.s, e: p.e, d: [...p.d] };
        };
        if (!d.isZero()) expect(parts(back)).toEqual(parts(new Decimal(fmt(d))));
        expect(fmt(back.mul('1.5').add(d))).toBe(fmt(d.mul('1.5').add(d)));
      }),
      { numRuns: 2000 },
    );
  });

  it('fromUnits lays out every value below 2^53 units exactly as decimal.js does (the number path)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }), fc.integer({ min: 0, max: 22 }), (u, scale) => {
        const d = fromUnits(u, scale);
        const digits = (u < 0n ? -u : u).toString().padStart(scale + 1, '0');
        const text = `${u < 0n ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`}`;
        const ref = new Decimal(text);
        expect(d.eq(ref)).toBe(true);
        if (u !== 0n) {
          const p = d as unknown as { s: number; e: number; d: number[] };
          const r = ref as unknown as { s: number; e: number; d: number[] };
          expect([p.s, p.e, p.d]).toEqual([r.s, r.e, r.d]);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('scaledSafeInteger is exact or undefined, never approximate', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), (text, scale) => {
        const d = D(text);
        const n = scaledSafeInteger(d, scale);
        const exact = reference(d, scale);
        if (n === undefined) {
          expect(exact.isInteger() && exact.abs().lte(Number.MAX_SAFE_INTEGER) && d.precision(true) <= 15).toBe(false);
        } else {
          expect(String(n)).toBe(exact.toFixed());
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('handles the usual venue numbers', () => {
    expect(scaledSafeInteger(D('30000.01'), 2)).toBe(3_000_001);
    expect(scaledSafeInteger(D('30000.015'), 2)).toBeUndefined();
    expect(scaledSafeInteger(D('0.000001'), 6)).toBe(1);
    expect(toUnits(D('0.1'), 18)).toBe(10n ** 17n);
    expect(toUnits(D('-12345678901234567890.123'), 3)).toBe(-12345678901234567890123n);
    expect(fmt(fromUnits(-5n, 3))).toBe('-0.005');
    expect(fmt(fromUnits(123n, 0))).toBe('123');
    for (const [u, scale, text] of [
      [1n, 11, '0.00000000001'],
      [10000000n, 7, '1'],
      [123456789012345n, 11, '1234.56789012345'],
      [5n, 0, '5'],
      [90071992547409910n, 11, '900719.9254740991'],
    ] as const) {
      const d = fromUnits(u, scale);
      expect(fmt(d)).toBe(text);
      const p = d as unknown as { e: number; d: number[] };
      const ref = new Decimal(text) as unknown as { e: number; d: number[] };
      expect([p.e, p.d]).toEqual([ref.e, ref.d]);
    }
  });
});
