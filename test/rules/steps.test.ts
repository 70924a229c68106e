import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { amountStep, isOnStep, minPrice, priceStep } from '../../src/rules/index.js';
import { BTC_USDT } from './fixtures.js';

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
});
