import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gatePlace, type GateInput } from '../../src/engine/gate.js';
import { checkPriceBand, DEFAULT_MAX_DEVIATION, maxDeviationOf, type PriceReference } from '../../src/engine/price-band.js';
import type { RiskState } from '../../src/engine/risk-limits.js';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { placeLimit, placeStopLimit } from '../../src/strategy/intents.js';
import { bookFixture, marketFixture } from '../../src/strategy/testing.js';

const market = marketFixture(); // BTC_USDT, price step 0.01, min total 5
const flat: RiskState = { position: ZERO, openBuyLeft: ZERO, openSellLeft: ZERO, openOrders: 0, recentOrderTimes: [], halted: false };
const mid = (p: string): PriceReference => ({ price: D(p), source: 'mid' });
const input = (over: Partial<GateInput>): GateInput => ({
  market,
  intent: placeLimit({ side: 'buy', price: D('30000'), amount: D('0.001') }),
  clientOrderId: 'mm-abc-1',
  risk: {},
  riskState: flat,
  band: { reference: mid('30000') },
  nowMs: 0,
  ...over,
});
const buy = (price: string) => placeLimit({ side: 'buy', price: D(price), amount: D('0.001') });
const sell = (price: string) => placeLimit({ side: 'sell', price: D(price), amount: D('0.001') });

describe('the price band in the gate', () => {
  it('is on by default at 5 %: a buy or sell beyond it is refused at stage risk, with price, reference and band', () => {
    expect(maxDeviationOf({})).toBe(DEFAULT_MAX_DEVIATION);
    expect(DEFAULT_MAX_DEVIATION.toFixed()).toBe('0.05');
    expect(gatePlace(input({ intent: buy('31500') })).ok).toBe(true); // exactly at the edge
    expect(gatePlace(input({ intent: sell('28500') })).ok).toBe(true);
    const high = gatePlace(input({ intent: buy('300000') }));
    expect(high).toEqual({
      ok: false,
      stage: 'risk',
      reason: 'risk:price-band',
      message: 'price 300000 is +900 % from the sane mid 30000; band ±5 % (28500 to 31500)',
    });
    expect(gatePlace(input({ intent: buy('31500.01') }))).toMatchObject({ ok: false, reason: 'risk:price-band' });
    expect(gatePlace(input({ intent: sell('28499.99') }))).toMatchObject({
      ok: false,
      reason: 'risk:price-band',
      message: expect.stringMatching(/^price 28499.99 is -5 % from/),
    });
    // a sell far above and a buy far below are quotes built on a lie too
    expect(gatePlace(input({ intent: sell(`1${'0'.repeat(29)}`) }))).toMatchObject({ reason: 'risk:price-band' });
    expect(gatePlace(input({ intent: placeLimit({ side: 'buy', price: D('1000'), amount: D('0.01') }) }))).toMatchObject({ reason: 'risk:price-band' });
  });

  it('checks the quantized price, before the post-only and funds checks', () => {
    // 31500.004 buys quantize down to 31500: inside
    expect(gatePlace(input({ intent: buy('31500.004') })).ok).toBe(true);
    const book = bookFixture({ bid: '29999', ask: '30000' });
    const r = gatePlace(
      input({ book, free: { stock: ZERO, money: ZERO }, intent: placeLimit({ side: 'buy', price: D('40000'), amount: D('0.001'), postOnly: true }) }),
    );
    expect(r).toMatchObject({ reason: 'risk:price-band' });
  });

  it('a stop-limit: both the activation price and the limit price', () => {
    const stop = (activation: string, limit: string) => placeStopLimit({ side: 'sell', price: D(limit), amount: D('0.01'), activationPrice: D(activation) });
    expect(gatePlace(input({ intent: stop('29000', '28900') })).ok).toBe(true);
    expect(gatePlace(input({ intent: stop('3000', '28900') }))).toMatchObject({
      reason: 'risk:price-band',
      message: expect.stringMatching(/^activation price 3000 is -90 %/),
    });
    expect(gatePlace(input({ intent: stop('29000', '2890') }))).toMatchObject({ reason: 'risk:price-band', message: expect.stringMatching(/^price 2890 is/) });
  });

  it('with no reference (no sane mid, no trade) the order is refused; the last trade serves when there is no mid', () => {
    expect(gatePlace(input({ band: { reference: undefined } }))).toEqual({
      ok: false,
      stage: 'risk',
      reason: 'risk:price-band',
      message: 'no sane reference price (no sane book and no trade yet): buy at 30000 not sent',
    });
    const trade: PriceReference = { price: D('30000'), source: 'last-trade' };
    expect(gatePlace(input({ band: { reference: trade }, intent: buy('32000') }))).toMatchObject({
      message: expect.stringContaining('from the last trade 30000'),
    });
  });

  it('configured per strategy: a narrower band, a wider one, or off (false); not checked without band input', () => {
    expect(gatePlace(input({ risk: { maxDeviation: D('0.01') }, intent: buy('30400') }))).toMatchObject({
      reason: 'risk:price-band',
      message: expect.stringContaining('band ±1 %'),
    });
    expect(gatePlace(input({ risk: { maxDeviation: D('0.5') }, intent: buy('44000') })).ok).toBe(true);
    expect(gatePlace(input({ risk: { maxDeviation: false }, intent: buy('300000') })).ok).toBe(true);
    expect(gatePlace(input({ risk: { maxDeviation: false }, band: { reference: undefined } })).ok).toBe(true);
    expect(gatePlace(input({ band: undefined, intent: buy('300000') })).ok).toBe(true);
  });

  it('property (seeded): an order within the band always passes the band check, one outside never does', () => {
    // reference and price in cents, band in basis points: every decision is exact decimal arithmetic
    const cents = (n: number) => D(n).div(100);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 20_000_000_000 }),
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.boolean(),
        (refCents, bandBp, priceCents, side, stop) => {
          const ref = cents(refCents);
          const band = D(bandBp).div(10_000);
          const price = cents(priceCents);
          const inside = price.minus(ref).abs().lte(ref.times(band));
          const order = stop ? { side, price: ref, activationPrice: price } : { side, price };
          const decision = checkPriceBand(band, { price: ref, source: 'mid' }, order);
          expect(decision.ok).toBe(inside);
          if (!decision.ok) expect(decision.reason).toBe('price-band');
        },
      ),
      { seed: 5, numRuns: 2000 },
    );
  });

  it('property (seeded): through the gate, a valid order inside the band is never refused for the band', () => {
    fc.assert(
      fc.property(fc.integer({ min: -500, max: 500 }), fc.constantFrom<'buy' | 'sell'>('buy', 'sell'), (bp, side) => {
        const ref = D('30000');
        const price: Decimal = ref.times(D(10_000 + bp).div(10_000)); // within ±5 %: on the 0.01 step
        const r = gatePlace(input({ intent: placeLimit({ side, price, amount: D('0.001') }) }));
        expect(r.ok).toBe(true);
        const outside = ref.times(D(10_000 + (bp >= 0 ? 501 + bp : bp - 501)).div(10_000));
        expect(gatePlace(input({ intent: placeLimit({ side, price: outside, amount: D('0.001') }) }))).toMatchObject({ reason: 'risk:price-band' });
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
