import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import { rememberValid, validateOrder, type RawOrderFields, type ValidateOptions } from '../../src/rules/index.js';
import { BTC_USDT } from './fixtures.js';

/** The market, with a count of every read of its figures (the rules' work on a request). */
function countingMarket(): { market: Market; reads: () => number } {
  let reads = 0;
  const market = new Proxy(BTC_USDT, {
    get(target, key, receiver) {
      reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { market, reads: () => reads };
}

const gated = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  kind: 'limit',
  market: 'BTC_USDT',
  side: 'buy',
  price: D('30000.01'),
  amount: D('0.01'),
  postOnly: true,
  clientOrderId: 'mm-1',
  tag: 'bid-0',
  ...over,
});

/** What the rules say of the request's current fields, from scratch (a copy: nothing remembered of it). */
const fresh = (market: Market | undefined, fields: RawOrderFields, options: ValidateOptions): ReturnType<typeof validateOrder> =>
  validateOrder(market, { ...fields }, options);

describe("a request validated before (the gate's order at the backtest venue)", () => {
  it("is checked for its client order id's uniqueness only, with the answers of a full check", () => {
    const { market, reads } = countingMarket();
    const order = gated();
    rememberValid(order, market, 'limit');
    const before = reads();
    expect(validateOrder(market, order, { kind: 'limit', isClientOrderIdUsed: () => false })).toEqual([]);
    const used: ValidateOptions = { kind: 'limit', isClientOrderIdUsed: (id) => id === 'mm-1' };
    expect(validateOrder(market, order, used)).toEqual(fresh(BTC_USDT, order, used));
    expect(validateOrder(market, order, { ...used, clientOrderIdKey: 'clientOrderId' })).toEqual(
      fresh(BTC_USDT, order, { ...used, clientOrderIdKey: 'clientOrderId' }),
    );
    expect(validateOrder(market, order, used)).toEqual([
      { code: 36, field: 'client_order_id', message: 'This client order id is already used by the current account.' },
    ]);
    // no rule read the market again: only the uniqueness was asked
    expect(reads()).toBe(before);
  });

  it('is checked in full when a field changed, for another market object or kind, or when it was not the last validated', () => {
    const amounts = fc.constantFrom('0.01', '0.0005', '0.0100001', '-1', '100');
    const prices = fc.constantFrom('30000.01', '30000.001', '0', '1');
    const change = fc.oneof(
      fc.record({ amount: amounts.map((a) => D(a)) }),
      fc.record({ price: prices.map((p) => D(p)) }),
      fc.record({ side: fc.constantFrom<unknown>('sell', 'long', undefined) }),
      fc.record({ market: fc.constantFrom<unknown>('ETH_USDT', '', 7) }),
      fc.record({ clientOrderId: fc.constantFrom<unknown>('mm-2', 'bad id', 5, '') }),
      fc.record({ ioc: fc.constantFrom<unknown>(true, 'yes') }),
      fc.record({ rpi: fc.constantFrom<unknown>(true, 1) }),
      fc.record({ postOnly: fc.constantFrom<unknown>(false, 'no') }),
      fc.record({ stp: fc.constantFrom<unknown>('cb', 'sometimes') }),
      fc.record({ activationPrice: fc.constantFrom<unknown>(D('1'), D('-1')) }),
    );
    fc.assert(
      fc.property(change, fc.constantFrom('field', 'market', 'kind', 'evicted', 'unchanged'), fc.boolean(), (fields, what, used) => {
        const order = gated();
        rememberValid(order, BTC_USDT, 'limit');
        let market: Market = BTC_USDT;
        let kind: 'limit' | 'stop-limit' = 'limit';
        if (what === 'field') Object.assign(order, fields);
        if (what === 'market') market = { ...BTC_USDT, minAmount: D('0.1') };
        if (what === 'kind') kind = 'stop-limit';
        if (what === 'evicted') {
          for (let i = 0; i < 64; i++) rememberValid(gated({ clientOrderId: `other-${i}` }), BTC_USDT, 'limit');
          Object.assign(order, fields);
        }
        const options: ValidateOptions = { kind, isClientOrderIdUsed: () => used };
        expect(validateOrder(market, order, options)).toEqual(fresh(market, order, options));
      }),
    );
  });

  it('a market object other than the one validated against is checked in full, even with equal figures', () => {
    const order = gated({ amount: D('0.01') });
    rememberValid(order, BTC_USDT, 'limit');
    const { market, reads } = countingMarket();
    validateOrder(market, order, { kind: 'limit' });
    expect(reads()).toBeGreaterThan(0);
  });
});
