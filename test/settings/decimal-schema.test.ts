import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zDecimal, zFraction, zIntLike, zNonNegativeDecimal, zNumberLike, zPositiveDecimal } from '../../src/settings/decimal-schema.js';

describe('decimal schemas', () => {
  it.each<[unknown, string]>([
    ['0.01', '0.01'],
    [0.01, '0.01'],
    ['30000', '30000'],
    [-2, '-2'],
    ['0.123456789012345678901', '0.123456789012345678901'],
  ])('zDecimal accepts %j', (input, expected) => {
    expect(zDecimal.parse(input).toFixed()).toBe(expected);
  });

  it.each<[unknown, string]>([
    ['1e-3', 'expected a decimal number (e.g. 0.01 or "0.01"), got a string'],
    ['abc', 'expected a decimal number (e.g. 0.01 or "0.01"), got a string'],
    [true, 'expected a decimal number (e.g. 0.01 or "0.01"), got true'],
    [Number.POSITIVE_INFINITY, 'expected a decimal number (e.g. 0.01 or "0.01"), got a number'],
    [undefined, 'missing (expected a decimal number (e.g. 0.01 or "0.01"))'],
  ])('zDecimal rejects %j', (input, message) => {
    const r = zDecimal.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(message);
  });

  it('range variants', () => {
    expect(zPositiveDecimal.safeParse('0').success).toBe(false);
    expect(zPositiveDecimal.safeParse('0.00000001').success).toBe(true);
    expect(zNonNegativeDecimal.safeParse('0').success).toBe(true);
    expect(zNonNegativeDecimal.safeParse('-0.1').error?.issues[0]?.message).toBe('expected a decimal of 0 or more, got -0.1');
    expect(zFraction.safeParse('1.01').success).toBe(false);
    expect(zFraction.parse('0.001').toFixed()).toBe('0.001');
  });

  it('round-trips any decimal string exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (mantissa, scale) => {
        const digits = (mantissa < 0n ? -mantissa : mantissa).toString().padStart(scale + 1, '0');
        const text = `${mantissa < 0n ? '-' : ''}${scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`}`;
        expect(zDecimal.parse(text).eq(text)).toBe(true);
      }),
    );
  });

  it('number-like schemas accept env strings', () => {
    expect(zIntLike.parse('8080')).toBe(8080);
    expect(zIntLike.parse(8080)).toBe(8080);
    expect(zIntLike.safeParse('80.5').success).toBe(false);
    expect(zNumberLike.parse('2.5')).toBe(2.5);
    expect(zNumberLike.safeParse('two').success).toBe(false);
  });
});
