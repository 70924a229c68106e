import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, ZERO } from '../../src/model/decimal.js';
import { checkOrderRisk, lossLimitBreached, ordersInWindow, type RiskState } from '../../src/engine/risk-limits.js';
import { marketFixture } from '../../src/strategy/testing.js';

const market = marketFixture();
const flat: RiskState = { position: ZERO, openBuyLeft: ZERO, openSellLeft: ZERO, openOrders: 0, recentOrderTimes: [], halted: false };
const order = { side: 'buy' as const, price: D('30000'), amount: D('0.01') };

describe('checkOrderRisk', () => {
  it('passes with no limits', () => {
    expect(checkOrderRisk({}, market, flat, order, 0)).toEqual({ ok: true });
  });

  it('names the first limit broken', () => {
    expect(checkOrderRisk({ maxOrderNotional: D('299') }, market, flat, order, 0)).toMatchObject({ ok: false, reason: 'max-order-notional' });
    expect(checkOrderRisk({ maxOpenOrders: 2 }, market, { ...flat, openOrders: 2 }, order, 0)).toMatchObject({ ok: false, reason: 'max-open-orders' });
    expect(checkOrderRisk({ maxOrdersPerMinute: 2 }, market, { ...flat, recentOrderTimes: [1000, 50_000] }, order, 60_500)).toMatchObject({
      ok: false,
      reason: 'max-orders-per-minute',
    });
    // the order at t=1000 left the 60 s window at 61 000
    expect(checkOrderRisk({ maxOrdersPerMinute: 2 }, market, { ...flat, recentOrderTimes: [1000, 50_000] }, order, 61_001)).toEqual({ ok: true });
    expect(checkOrderRisk({}, market, { ...flat, halted: true }, order, 0)).toMatchObject({ ok: false, reason: 'halted' });
  });

  it('counts open orders on the same side in the worst-case inventory, and lets reducing orders through', () => {
    const limits = { maxInventory: { [market.stock]: D('0.05') } };
    const long = { ...flat, position: D('0.03'), openBuyLeft: D('0.015') };
    expect(checkOrderRisk(limits, market, long, order, 0)).toMatchObject({ ok: false, reason: 'max-inventory' });
    expect(checkOrderRisk(limits, market, long, { ...order, side: 'sell' }, 0)).toEqual({ ok: true });
    const money = { maxInventory: { [market.money]: D('100') } };
    expect(checkOrderRisk(money, market, flat, order, 0)).toMatchObject({ ok: false, reason: 'max-inventory' });
  });

  it('never lets the worst-case position exceed maxInventory when it accepts a growing order (property)', () => {
    const dec = fc.integer({ min: 0, max: 100_000 }).map((n) => D(n).div(1000));
    fc.assert(
      fc.property(
        dec,
        dec,
        dec,
        dec,
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.integer({ min: 1, max: 100_000 }),
        (pos, buys, sells, amount, side, lim) => {
          const limit = D(lim).div(1000);
          const state = { ...flat, position: pos.minus(D(50)), openBuyLeft: buys, openSellLeft: sells };
          const r = checkOrderRisk({ maxInventory: { [market.stock]: limit } }, market, state, { side, price: D(1), amount }, 0);
          const worst = side === 'buy' ? state.position.plus(buys).plus(amount) : state.position.minus(sells).minus(amount);
          const grows = side === 'buy' ? worst.gt(0) : worst.lt(0);
          if (r.ok && grows) expect(worst.abs().lte(limit)).toBe(true);
          if (!r.ok) expect(grows && worst.abs().gt(limit)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('loss limit and order window helpers', () => {
    expect(lossLimitBreached({ maxLoss: D('10') }, D('-9.99'))).toBe(false);
    expect(lossLimitBreached({ maxLoss: D('10') }, D('-10'))).toBe(true);
    expect(lossLimitBreached({}, D('-1000'))).toBe(false);
    expect(ordersInWindow([0, 10, 59_999, 60_000], 60_000)).toBe(3);
  });
});
