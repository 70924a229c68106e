import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountStep, D, priceStep, roundAmount, roundPrice } from '../../src/strategy/index.js';
import { quantizeOrder } from '../../src/rules/quantize.js';
import { marketFixture } from '../../src/strategy/testing.js';

/** Issue 26 item 7: "there is no helper for the price step". The SDK's steps and rounding are the engine's own. */
const market = marketFixture({ moneyPrec: 2, stockPrec: 4 });

describe('SDK market steps', () => {
  it('gives the price and amount steps of a market', () => {
    expect(priceStep(market).toFixed()).toBe('0.01');
    expect(amountStep(market).toFixed()).toBe('0.0001');
  });

  it('rounds prices away from the spread (passive) unless told otherwise, amounts down', () => {
    expect(roundPrice(market, 'buy', D('100.019')).toFixed()).toBe('100.01');
    expect(roundPrice(market, 'sell', D('100.011')).toFixed()).toBe('100.02');
    expect(roundPrice(market, 'buy', D('100.011'), 'aggressive').toFixed()).toBe('100.02');
    expect(roundPrice(market, 'sell', D('100.015'), 'nearest').toFixed()).toBe('100.02');
    expect(roundAmount(market, D('0.12349')).toFixed()).toBe('0.1234');
  });

  it('gives what the engine sends: quantizing a rounded order changes nothing (seeded)', () => {
    const decimal = fc.integer({ min: 1_000_000, max: 9_000_000_000 }).map((n) => D(n).div(100_000));
    fc.assert(
      fc.property(fc.constantFrom('buy' as const, 'sell' as const), decimal, decimal, (side, price, amount) => {
        const mine = { price: roundPrice(market, side, price), amount: roundAmount(market, amount.plus(1)) };
        const engine = quantizeOrder(market, { side, price, amount: amount.plus(1) });
        if (!engine.ok) return;
        expect([mine.price.toFixed(), mine.amount.toFixed()]).toEqual([engine.price.toFixed(), engine.amount.toFixed()]);
      }),
      { seed: 26, numRuns: 300 },
    );
  });
});
