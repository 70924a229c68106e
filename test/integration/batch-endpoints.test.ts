import { afterEach, describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { BulkOutcomeUnknownError, InnerValidationError, RequestValidationError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { PlaceLimitRequest } from '../../src/venue/trading-api.js';
import type { Dialect } from '../../src/venue/wire.js';
import { simAccount, simAccountId, useSim, useSimClients } from '../helpers/with-sim.js';

/**
 * The batch endpoints (order/bulk, order/cancel/all, trade-account/order/history) and the investments
 * ticker filter, through the real client against the sim over loopback HTTP, in both dialects.
 */
describe.each<Dialect>(['contract', 'exchange'])('batch endpoints through the client against the sim, %s dialect', (dialect) => {
  const sim = useSim({ dialect, flow: false });
  const client = useSimClients(dialect);
  const accountId = simAccountId;
  const buy = (price: string, id: string, amount = '0.01'): PlaceLimitRequest => ({
    market: 'BTC_USDT',
    side: 'buy',
    amount: D(amount),
    price: D(price),
    clientOrderId: id,
  });

  it('bulk: per-order results in request order, accepted ones open, refused ones with the venue code, nothing else placed', async () => {
    const s = await sim();
    const alice = client(s, true);
    const results = await alice.placeLimitBulk([
      buy('29000', `b1-${dialect}`),
      buy('29000', `b2-${dialect}`, '0.0000001'), // below the minimum amount: 32
      buy('28000', `b1-${dialect}`), // the id of the first one: 36
      { ...buy('29500', `b3-${dialect}`), amount: D('100000') }, // the balance cannot cover it: 10
      { ...buy('28500', `b4-${dialect}`), postOnly: true },
    ]);
    expect(results.map((r) => r.status)).toEqual(['placed', 'rejected', 'rejected', 'rejected', 'placed']);
    const [first, tiny, dup, broke, last] = results;
    if (first?.status !== 'placed' || last?.status !== 'placed') throw new Error('unreachable');
    expect(first.order).toMatchObject({ clientOrderId: `b1-${dialect}`, market: 'BTC_USDT', side: 'buy', kind: 'limit' });
    expect(fmt(first.order.left)).toBe('0.01');
    expect(last.order.postOnly).toBe(true);
    if (tiny?.status !== 'rejected' || dup?.status !== 'rejected' || broke?.status !== 'rejected') throw new Error('unreachable');
    expect(tiny.error).toBeInstanceOf(RequestValidationError);
    expect(tiny.error.venueCode).toBe(32);
    expect(dup.error.venueCode).toBe(36);
    expect(broke.error).toBeInstanceOf(InnerValidationError);
    expect(broke.error.venueCode).toBe(10);
    expect(broke.error.errors['amount']).toEqual(['Not enough balance.']);
    const venue = (await alice.openOrders({ market: 'BTC_USDT' })).map((o) => o.clientOrderId).sort();
    expect(venue).toEqual([`b1-${dialect}`, `b4-${dialect}`]);
  });

  it('bulk: stopOnFail places the orders before the first failure only', async () => {
    const s = await sim();
    const alice = client(s, true);
    const results = await alice.placeLimitBulk([buy('29000', 's1'), buy('0', 's2'), buy('28000', 's3')], { stopOnFail: true });
    expect(results.map((r) => r.status)).toEqual(['placed', 'rejected', 'rejected']);
    expect((await alice.openOrders()).map((o) => o.clientOrderId)).toEqual(['s1']);
  });

  it('bulk: more than 20 orders is refused by the client before sending; 21 sent raw get 422 from the sim', async () => {
    const s = await sim();
    const alice = client(s, true);
    const many = Array.from({ length: 21 }, (_, i) => buy('29000', `m${i}`));
    await expect(alice.placeLimitBulk(many)).rejects.toThrow(/1 to 20 orders/);
    const twenty = await alice.placeLimitBulk(many.slice(0, 20));
    expect(twenty.every((r) => r.status === 'placed')).toBe(true);
  });

  it('cancel all: every open order of the market (stop orders too), not the other market, not the other account', async () => {
    const s = await sim();
    const alice = client(s, true);
    const bob = client(s, false);
    await alice.placeLimit(buy('29000', 'c1'));
    await alice.placeLimit(buy('28000', 'c2'));
    await alice.placeStopLimit({ market: 'BTC_USDT', side: 'sell', amount: D('0.01'), price: D('27000'), activationPrice: D('27500'), clientOrderId: 'c3' });
    const other = (await alice.markets()).find((m) => m.name !== 'BTC_USDT')!;
    const book = await alice.orderBook(other.name, { limit: 1 });
    const otherPrice = book.bids[0]?.price.div(2).toDecimalPlaces(other.moneyPrec) ?? D(1);
    await alice
      .placeLimit({ market: other.name, side: 'buy', amount: other.minAmount.times(10), price: otherPrice.gt(0) ? otherPrice : D(1), clientOrderId: 'c4' })
      .catch(() => undefined);
    await bob.placeLimit(buy('29000', 'bob-1'));
    await alice.cancelAll('BTC_USDT');
    expect(await alice.openOrders({ market: 'BTC_USDT' })).toEqual([]);
    expect((await bob.openOrders({ market: 'BTC_USDT' })).map((o) => o.clientOrderId)).toEqual(['bob-1']);
    expect(
      s.exchange
        .finishedOrders(accountId(s, true))
        .filter((o) => o.market === 'BTC_USDT')
        .map((o) => o.clientOrderId)
        .sort(),
    ).toEqual(['c1', 'c2', 'c3']);
    await expect(alice.cancelAll('NOPE_USDT')).rejects.toMatchObject({ venueCode: 31 });
    await alice.cancelAll('BTC_USDT'); // nothing left: still fine
  });

  it('order history: executed orders with deals, fees and times, filters by market, client id, status; unknown client id → []', async () => {
    const s = await sim();
    const alice = client(s, true);
    const bob = client(s, false);
    await alice.placeLimit({ market: 'BTC_USDT', side: 'sell', amount: D('0.02'), price: D('30000'), clientOrderId: 'h-sell' });
    await bob.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.02'), price: D('30000'), clientOrderId: 'h-buy' });
    await alice.placeLimit({ market: 'BTC_USDT', side: 'sell', amount: D('0.02'), price: D('30100'), clientOrderId: 'h-part' });
    await bob.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.005'), price: D('30100'), clientOrderId: 'h-buy2' });
    await alice.cancel({ market: 'BTC_USDT', clientOrderId: 'h-part' });
    await alice.placeLimit(buy('20000', 'h-untouched'));
    await alice.cancel({ market: 'BTC_USDT', clientOrderId: 'h-untouched' });

    const all = await alice.orderHistory({ market: 'BTC_USDT' });
    expect(all.map((o) => o.clientOrderId)).toEqual(['h-part', 'h-sell']);
    const [part, sell] = all;
    expect(sell).toMatchObject({ side: 'sell', kind: 'limit', status: 'FILLED', feeAsset: 'USDT' });
    expect(fmt(sell!.dealStock)).toBe('0.02');
    expect(fmt(sell!.dealMoney)).toBe('600');
    expect(sell!.left.isZero()).toBe(true);
    expect(fmt(sell!.makerFee)).toBe('0.001');
    expect(fmt(sell!.dealFee)).toBe('0.6');
    expect(sell!.finishedAt).toBeGreaterThanOrEqual(sell!.timestamp);
    expect(part).toMatchObject({ status: 'CANCELED' });
    expect(fmt(part!.dealStock)).toBe('0.005');
    expect(fmt(part!.left)).toBe('0.015');
    expect((await alice.orderHistory({ clientOrderId: 'h-sell' })).map((o) => o.orderId)).toEqual([sell!.orderId]);
    expect((await alice.orderHistory({ status: 'FILLED' })).map((o) => o.clientOrderId)).toEqual(['h-sell']);
    expect(await alice.orderHistory({ clientOrderId: 'never-there' })).toEqual([]);
    expect((await bob.orderHistory()).map((o) => o.clientOrderId).sort()).toEqual(['h-buy', 'h-buy2']);
    expect((await alice.orderHistory({ limit: 1, offset: 1 })).map((o) => o.clientOrderId)).toEqual(['h-sell']);
    await expect(alice.orderHistory({ limit: 501 })).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('investments: an unknown ticker filter is 400 with errors.ticker; a known one answers', async () => {
    const s = await sim();
    const alice = client(s, true);
    const error = await alice.investments({ ticker: 'NOPE' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).status).toBe(400);
    expect((error as RequestValidationError).errors['ticker']).toBeDefined();
    expect((await alice.investments({ ticker: 'USDT' })).records.every((r) => r.plan.ticker === 'USDT')).toBe(true);
  });
});

describe('bulk request with an unknown outcome', () => {
  const sim = useSim({ flow: false });
  const open: RestClient[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });

  it.each([
    ['the answer dropped after the venue acted', { dropAfterAccept: 1 }, 2],
    ['a 503 before acting', { error5xx: 1 }, 0],
  ] as const)('%s: BulkOutcomeUnknownError naming every client order id, never resent', async (_name, fault, placed) => {
    const s = await sim({ faults: { seed: 1, endpoints: { orderBulk: fault } } });
    const acc = simAccount(s, true);
    const c = new RestClient({ baseUrl: s.baseUrl, apiKey: acc.apiKey, apiSecret: acc.apiSecret, retry: { limit: 3, networkBaseMs: 1 } });
    open.push(c);
    const error = await c
      .placeLimitBulk([
        { market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('29000'), clientOrderId: 'u1' },
        { market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('28000'), clientOrderId: 'u2' },
      ])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(BulkOutcomeUnknownError);
    expect((error as BulkOutcomeUnknownError).clientOrderIds).toEqual(['u1', 'u2']);
    expect(s.stats.arrivalTimes('orderBulk')).toHaveLength(1);
    expect(s.exchange.openOrders(s.exchange.accountByKey(acc.apiKey)!.id)).toHaveLength(placed);
  });
});
