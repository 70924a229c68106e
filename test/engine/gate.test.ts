import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, fmt, ZERO } from '../../src/model/decimal.js';
import { gatePlace, type GateInput } from '../../src/engine/gate.js';
import type { RiskState } from '../../src/engine/risk-limits.js';
import { quantizeOrder, toMarketSteps, validateOrder } from '../../src/rules/index.js';
import { placeLimit, placeStopLimit } from '../../src/strategy/intents.js';
import { bookFixture, marketFixture } from '../../src/strategy/testing.js';

const market = marketFixture(); // BTC_USDT, amount step 0.000001, price step 0.01, min amount 0.0001, min total 5
const flat: RiskState = { position: ZERO, openBuyLeft: ZERO, openSellLeft: ZERO, openOrders: 0, recentOrderTimes: [], halted: false };
const input = (over: Partial<GateInput>): GateInput => ({
  market,
  intent: placeLimit({ side: 'buy', price: D('30000.009'), amount: D('0.0012345678') }),
  clientOrderId: 'mm-abc-1',
  risk: {},
  riskState: flat,
  nowMs: 0,
  ...over,
});

describe('gatePlace', () => {
  it('quantizes toward the passive side and keeps the tag and flags', () => {
    const r = gatePlace(input({ intent: placeLimit({ side: 'buy', price: D('30000.009'), amount: D('0.0012345678'), postOnly: true, tag: 'bid-0' }) }));
    expect(r).toMatchObject({ ok: true, order: { kind: 'limit', postOnly: true, tag: 'bid-0', clientOrderId: 'mm-abc-1' } });
    if (!r.ok) return;
    expect(r.order.price.toFixed()).toBe('30000');
    expect(r.order.amount.toFixed()).toBe('0.001234');
    const sell = gatePlace(input({ intent: placeLimit({ side: 'sell', price: D('30000.001'), amount: D('0.001') }) }));
    expect(sell.ok && sell.order.price.toFixed()).toBe('30000.01');
  });

  it('rejects with the rules reason instead of sending: below min amount, below min total, flag conflict', () => {
    expect(gatePlace(input({ intent: placeLimit({ side: 'buy', price: D('30000'), amount: D('0.00001') }) }))).toMatchObject({
      ok: false,
      stage: 'rules',
      reason: 'rules:32',
    });
    expect(gatePlace(input({ intent: placeLimit({ side: 'buy', price: D('10'), amount: D('0.1') }) }))).toMatchObject({
      ok: false,
      stage: 'rules',
      reason: 'rules:30',
    });
    expect(gatePlace(input({ intent: placeLimit({ side: 'buy', price: D('30000'), amount: D('0.001'), ioc: true, postOnly: true }) }))).toMatchObject({
      ok: false,
      reason: 'rules:37',
    });
    expect(gatePlace(input({ clientOrderId: 'bad_id' }))).toMatchObject({ ok: false, reason: 'rules:36' });
  });

  it('refuses a post-only order that would take the latest book', () => {
    const book = bookFixture({ bid: '29999', ask: '30000' });
    const r = gatePlace(input({ book, intent: placeLimit({ side: 'buy', price: D('30000'), amount: D('0.001'), postOnly: true }) }));
    expect(r).toMatchObject({ ok: false, reason: 'rules:post-only-would-take' });
    expect(gatePlace(input({ book, intent: placeLimit({ side: 'buy', price: D('29999.99'), amount: D('0.001'), postOnly: true }) })).ok).toBe(true);
  });

  it('checks free funds and risk after the rules', () => {
    const free = { stock: D('0.0005'), money: D('10') };
    expect(gatePlace(input({ free, intent: placeLimit({ side: 'sell', price: D('30000'), amount: D('0.001') }) }))).toMatchObject({
      reason: 'risk:insufficient-balance',
    });
    expect(gatePlace(input({ free, intent: placeLimit({ side: 'buy', price: D('30000'), amount: D('0.001') }) }))).toMatchObject({
      reason: 'risk:insufficient-balance',
    });
    expect(gatePlace(input({ risk: { maxOpenOrders: 1 }, riskState: { ...flat, openOrders: 1 } }))).toMatchObject({
      stage: 'risk',
      reason: 'risk:max-open-orders',
    });
  });

  it('puts the activation price of a stop-limit on the price step', () => {
    const r = gatePlace(input({ intent: placeStopLimit({ side: 'sell', price: D('29000'), amount: D('0.001'), activationPrice: D('29100.004') }) }));
    expect(r.ok && r.order.kind === 'stop-limit' && r.order.activationPrice.toFixed()).toBe('29100');
    expect(r.ok && r.order.kind).toBe('stop-limit');
  });

  it('whatever it lets through is exactly what the venue rules accept (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (side, p, a, moneyPrec, stockPrec) => {
          const m = marketFixture({ moneyPrec, stockPrec, minAmount: D('0.001'), minTotal: D('1') });
          const r = gatePlace({ ...input({}), market: m, intent: placeLimit({ side, price: D(p).div(1000), amount: D(a).div(100_000) }) });
          if (!r.ok) return;
          const v = validateOrder(m, {
            market: m.name,
            side,
            price: r.order.price.toFixed(),
            amount: r.order.amount.toFixed(),
            clientOrderId: r.order.clientOrderId,
          });
          expect(v).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('rejects for the rules exactly when the venue would reject the quantized request, with its first code (property)', () => {
    const flag = fc.option(fc.boolean(), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
          p: fc.integer({ min: 0, max: 10_000_000_000 }),
          a: fc.integer({ min: 0, max: 100_000_000 }),
          postOnly: flag,
          ioc: flag,
          rpi: flag,
          id: fc.constantFrom('mm-abc-1', 'bad_id', 'x'.repeat(3)),
        }),
        ({ side, p, a, postOnly, ioc, rpi, id }) => {
          const flags = { ...(postOnly !== undefined ? { postOnly } : {}), ...(ioc !== undefined ? { ioc } : {}), ...(rpi !== undefined ? { rpi } : {}) };
          const intent = placeLimit({ side, price: D(p).div(1000), amount: D(a).div(100_000), ...flags });
          const r = gatePlace(input({ intent, clientOrderId: id }));
          const q = toMarketSteps(market, { side, price: intent.price, amount: intent.amount });
          // what the venue reads: the quantized numbers as printed on the wire, with the id and flags
          const wire = validateOrder(market, { market: market.name, side, price: fmt(q.price), amount: fmt(q.amount), clientOrderId: id, ...flags });
          expect(!r.ok && r.stage === 'rules').toBe(wire.length > 0);
          if (!r.ok && r.stage === 'rules') expect(r.reason).toBe(`rules:${wire[0]?.code}`);
          // and whatever quantizeOrder alone refuses, the gate refuses too
          if (!quantizeOrder(market, { side, price: intent.price, amount: intent.amount }).ok) expect(r.ok).toBe(false);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
