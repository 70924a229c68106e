import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookCache } from '../../src/sim/http/book-cache.js';
import type { RouteContext, SimAccountRef } from '../../src/sim/http/route-context.js';
import { orderBulk } from '../../src/sim/http/routes-order-batch.js';
import { orderNew } from '../../src/sim/http/routes-order-create.js';
import type { Dialect } from '../../src/venue/wire.js';
import { makeExchange } from './exchange-fixture.js';

/** One bulk item: valid or broken in each way a single order/new can be refused. */
const item = fc.record({
  market: fc.constantFrom('BTC_USDT', 'BTC_USDT', 'BTC_USDT', 'NOPE_USDT'),
  side: fc.constantFrom('buy', 'sell', 'hold'),
  amount: fc.constantFrom('0.01', '0.001', '0.0001', '0.0000001', '5000', 'x'),
  price: fc.constantFrom('29000', '30000', '31000', '30000.001', '0', '1'),
  clientOrderId: fc.constantFrom(undefined, 'id-1', 'id-2', 'id-3', 'bad id!'),
  postOnly: fc.constantFrom(undefined, true, false),
  ioc: fc.constantFrom(undefined, true),
});

describe('order/bulk enforces exactly what order/new does, order by order (property)', () => {
  it('each result equals the answer of order/new for that order on an exchange in the same state', () => {
    fc.assert(
      fc.property(fc.constantFrom<Dialect>('contract', 'exchange'), fc.array(item, { minLength: 1, maxLength: 20 }), (dialect, raw) => {
        const items = raw.map((i) => Object.fromEntries(Object.entries(i).filter(([, v]) => v !== undefined)));
        const viaBulk = makeExchange();
        const viaSingle = makeExchange();
        // a resting book to take from and to be refused post-only against
        for (const { ex } of [viaBulk, viaSingle]) {
          ex.placeLimit('b', {
            market: 'BTC_USDT',
            side: 'sell',
            amount: ex.markets.get('BTC_USDT')!.minAmount.times(20),
            price: ex.markets.get('BTC_USDT')!.minTotal.times(6000).toDecimalPlaces(2),
          });
        }
        const ctx = (ex: typeof viaBulk.ex): RouteContext => ({ exchange: ex, dialect, nowMs: 1_700_000_000_000, bookCache: new BookCache() });
        const account = (ex: typeof viaBulk.ex) => ex.accountByName('a') as SimAccountRef;
        const bulk = orderBulk(ctx(viaBulk.ex), account(viaBulk.ex), { orders: items });
        expect(bulk.status).toBe(200);
        const results = bulk.body as Array<{ result: unknown; error: unknown }>;
        expect(results).toHaveLength(items.length);
        items.forEach((it, i) => {
          const single = orderNew(ctx(viaSingle.ex), account(viaSingle.ex), it);
          expect(results[i], JSON.stringify(it)).toEqual(single.status === 200 ? { result: single.body, error: null } : { result: null, error: single.body });
        });
        expect(viaBulk.ex.openOrders('a', { limit: 100 })).toEqual(viaSingle.ex.openOrders('a', { limit: 100 }));
        expect(viaBulk.ex.tradeBalances('a')).toEqual(viaSingle.ex.tradeBalances('a'));
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['no orders', {}, 'orders'],
    ['an empty list', { orders: [] }, 'orders'],
    ['not a list', { orders: { side: 'buy' } }, 'orders'],
    ['21 orders', { orders: Array.from({ length: 21 }, () => ({ market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '29000' })) }, 'orders'],
    ['stopOnFail not a boolean', { orders: [{ market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '29000' }], stopOnFail: 'yes' }, 'stopOnFail'],
  ] as const)('request-level problem (%s): 422 code 30 on errors.%s, nothing placed', (_name, body, key) => {
    const { ex } = makeExchange();
    const reply = orderBulk({ exchange: ex, dialect: 'contract', nowMs: 0, bookCache: new BookCache() }, ex.accountByName('a') as SimAccountRef, body);
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ code: 30, message: 'Validation failed', errors: { [key]: [expect.any(String)] } });
    expect(ex.openOrders('a')).toEqual([]);
  });
});
