import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, fmt, type Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { Side } from '../../src/model/order.js';
import { amountStep, isOnStep, priceStep, quantizeOrder, validateOrder, type PriceRounding } from '../../src/rules/index.js';
import { BTC_USDT, decimalArb, marketArb } from './fixtures.js';

const sideArb = fc.constantFrom<Side>('buy', 'sell');
const roundingArb = fc.constantFrom<PriceRounding>('passive', 'aggressive', 'down', 'up', 'nearest');
const reqArb = fc.record({ side: sideArb, price: decimalArb(12, true), amount: decimalArb(12, true) });

const fieldsOf = (m: Market, side: Side, price: Decimal, amount: Decimal) => ({ market: m.name, side, price: fmt(price), amount: fmt(amount) });

describe('quantizeOrder: examples', () => {
  it.each<[Side, string, PriceRounding | undefined, string]>([
    ['buy', '30000.019', undefined, '30000.01'],
    ['sell', '30000.011', undefined, '30000.02'],
    ['buy', '30000.011', 'aggressive', '30000.02'],
    ['sell', '30000.019', 'aggressive', '30000.01'],
    ['sell', '30000.019', 'down', '30000.01'],
    ['buy', '30000.011', 'up', '30000.02'],
    ['buy', '30000.015', 'nearest', '30000.02'],
    ['buy', '30000.014', 'nearest', '30000.01'],
  ])('%s at %s with %s rounding → %s', (side, price, rounding, expected) => {
    const r = quantizeOrder(BTC_USDT, { side, price: D(price), amount: D('0.0123456789') }, rounding ? { rounding } : {});
    expect(r.ok && [fmt(r.price), fmt(r.amount)]).toEqual([expected, '0.012345']);
  });

  it('rejects with reasons what would round to zero or below a minimum, never bumps it up', () => {
    const zero = quantizeOrder(BTC_USDT, { side: 'buy', price: D('0.009'), amount: D('0.0000009') });
    expect(zero.ok).toBe(false);
    expect(!zero.ok && zero.violations.map((x) => x.message)).toEqual([
      'Given amount is less than min amount 0.001',
      'The Price should be greater than or equal to 0.01',
    ]);
    const small = quantizeOrder(BTC_USDT, { side: 'buy', price: D('5000'), amount: D('0.0010009') });
    expect(!small.ok && small.violations).toEqual([{ code: 30, field: 'total', message: 'Total(amount * price) is less than 5.05' }]);
    const big = quantizeOrder(BTC_USDT, { side: 'sell', price: D('100000'), amount: D('20') });
    expect(!big.ok && big.violations[0]?.code).toBe(30);
  });

  it('rejects non-finite input instead of throwing', () => {
    const r = quantizeOrder(BTC_USDT, { side: 'buy', price: D(Infinity), amount: D('1') });
    expect(!r.ok && r.violations.map((x) => x.code)).toEqual([33]);
  });
});

describe('quantizeOrder: properties over generated markets', () => {
  it('an ok result passes validateOrder; a rejection carries at least one reason', () => {
    fc.assert(
      fc.property(marketArb, reqArb, roundingArb, (m, req, rounding) => {
        const r = quantizeOrder(m, req, { rounding });
        if (r.ok) expect(validateOrder(m, fieldsOf(m, req.side, r.price, r.amount))).toEqual([]);
        else {
          expect(r.violations.length).toBeGreaterThan(0);
          for (const x of r.violations) expect(x.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(marketArb, reqArb, roundingArb, (m, req, rounding) => {
        const r = quantizeOrder(m, req, { rounding });
        if (!r.ok) return;
        const again = quantizeOrder(m, { side: req.side, price: r.price, amount: r.amount }, { rounding });
        expect(again.ok && [fmt(again.price), fmt(again.amount)]).toEqual([fmt(r.price), fmt(r.amount)]);
      }),
      { numRuns: 2000 },
    );
  });

  it('by default never grows the commitment: amount, buy price and buy notional never up, sell price never down', () => {
    fc.assert(
      fc.property(marketArb, reqArb, (m, req) => {
        const r = quantizeOrder(m, req);
        if (!r.ok) return;
        expect(r.amount.lte(req.amount)).toBe(true);
        if (req.side === 'buy') {
          expect(r.price.lte(req.price)).toBe(true);
          expect(r.amount.mul(r.price).lte(req.amount.mul(req.price))).toBe(true);
        } else {
          expect(r.price.gte(req.price)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never yields zero and always lands on the steps', () => {
    fc.assert(
      fc.property(marketArb, reqArb, roundingArb, (m, req, rounding) => {
        const r = quantizeOrder(m, req, { rounding });
        if (!r.ok) return;
        expect(r.amount.gt(0) && r.price.gt(0)).toBe(true);
        expect(isOnStep(r.amount, amountStep(m)) && isOnStep(r.price, priceStep(m))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves an order that already meets the rules unchanged, in every rounding mode', () => {
    const onStepArb = marketArb.chain((m) =>
      fc.record({
        m: fc.constant(m),
        side: sideArb,
        rounding: roundingArb,
        amountSteps: fc.integer({ min: 1, max: 10_000_000 }),
        priceSteps: fc.integer({ min: 1, max: 10_000_000 }),
      }),
    );
    fc.assert(
      fc.property(onStepArb, ({ m, side, rounding, amountSteps, priceSteps }) => {
        const amount = amountStep(m).mul(amountSteps);
        const price = priceStep(m).mul(priceSteps);
        const valid = validateOrder(m, fieldsOf(m, side, price, amount)).length === 0;
        const r = quantizeOrder(m, { side, price, amount }, { rounding });
        expect(r.ok).toBe(valid);
        if (r.ok) expect([fmt(r.price), fmt(r.amount)]).toEqual([fmt(price), fmt(amount)]);
      }),
      { numRuns: 2000 },
    );
  });
});
