import { afterEach, describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { AuthError, InnerValidationError, PublicApiError, RequestValidationError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { Dialect } from '../../src/venue/wire.js';
import { simAccount, useSim } from '../helpers/with-sim.js';

/** Every endpoint, round-tripped over loopback HTTP against the simulated exchange with the real client. */
describe.each<Dialect>(['contract', 'exchange'])('RestClient against the sim, %s dialect', (dialect) => {
  const sim = useSim({ dialect, flow: false });
  const open: RestClient[] = [];

  /** alice (business partner) and bob (not), each with a client speaking `dialect`. */
  async function clients(): Promise<{ alice: RestClient; bob: RestClient }> {
    const s = await sim();
    const make = (partner: boolean): RestClient => {
      const acc = simAccount(s, partner);
      const c = new RestClient({ baseUrl: s.baseUrl, dialect, apiKey: acc.apiKey, apiSecret: acc.apiSecret });
      open.push(c);
      return c;
    };
    return { alice: make(true), bob: make(false) };
  }

  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });

  it('public: ping, markets, assets, order book with limit and level', async () => {
    const { alice } = await clients();
    expect(await alice.ping()).toBe(true);
    const btc = (await alice.markets()).find((m) => m.name === 'BTC_USDT');
    expect(btc).toBeDefined();
    expect(fmt(btc!.makerFee)).toBe('0.001');
    expect(btc!.maxTotal).toBeNull();
    expect(btc!.stockPrec).toBe(6);
    expect(Object.keys(await alice.assets())).toEqual(expect.arrayContaining(['BTC', 'USDT']));
    await alice.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('29000'), clientOrderId: 'bk-1' });
    await alice.placeLimit({ market: 'BTC_USDT', side: 'sell', amount: D('0.02'), price: D('31000'), clientOrderId: 'bk-2' });
    const book = await alice.orderBook('BTC_USDT', { limit: 5, level: 0 });
    expect(book.market).toBe('BTC_USDT');
    expect(book.bids.find((l) => l.price.eq(29000))?.amount.eq(D('0.01'))).toBe(true);
    expect(book.asks.find((l) => l.price.eq(31000))?.amount.eq(D('0.02'))).toBe(true);
    await expect(alice.orderBook('NOPE_USDT')).rejects.toBeInstanceOf(PublicApiError);
  });

  it('limit and stop-limit orders, open orders, cancel by id and by client id', async () => {
    const { alice } = await clients();
    const placed = await alice.placeLimit({
      market: 'BTC_USDT',
      side: 'buy',
      amount: D('0.01'),
      price: D('29000.5'),
      clientOrderId: 'rt-1',
      postOnly: true,
      stp: 'cancel_new',
    });
    expect(placed).toMatchObject({ clientOrderId: 'rt-1', market: 'BTC_USDT', side: 'buy', kind: 'limit', postOnly: true });
    expect(fmt(placed.price)).toBe('29000.5');
    expect(placed.left.eq(D('0.01'))).toBe(true);
    const stop = await alice.placeStopLimit({
      market: 'BTC_USDT',
      side: 'sell',
      amount: D('0.01'),
      price: D('20000'),
      activationPrice: D('20100'),
      clientOrderId: 'rt-2',
    });
    expect(stop.kind).toBe('stop-limit');
    expect(fmt(stop.activationPrice!)).toBe('20100');
    expect((await alice.openOrders({ market: 'BTC_USDT' })).map((o) => o.clientOrderId)).toContain('rt-1');
    expect((await alice.openOrders({ market: 'BTC_USDT', clientOrderId: 'rt-1' }))[0]?.orderId).toBe(placed.orderId);
    expect((await alice.cancel({ market: 'BTC_USDT', orderId: placed.orderId })).orderId).toBe(placed.orderId);
    await expect(alice.cancel({ market: 'BTC_USDT', orderId: placed.orderId })).rejects.toSatisfy(
      (e) => e instanceof InnerValidationError && e.venueCode === 2,
    );
    await expect(alice.cancel({ market: 'BTC_USDT', clientOrderId: 'rt-2' })).resolves.toMatchObject({ clientOrderId: 'rt-2' });
    await expect(alice.cancel({ market: 'BTC_USDT' })).rejects.toThrow(/exactly one/);
  });

  it('a trade between two accounts: deals with roles, trade balances move, fee in money', async () => {
    const { alice, bob } = await clients();
    const before = await alice.tradeBalance();
    await alice.placeLimit({ market: 'ETH_USDT', side: 'sell', amount: D('0.1'), price: D('2500'), clientOrderId: 'mk-1' });
    const frozen = await alice.tradeBalance('ETH');
    expect(frozen.ETH?.freeze.eq(D('0.1'))).toBe(true);
    const taker = await bob.placeLimit({ market: 'ETH_USDT', side: 'buy', amount: D('0.1'), price: D('2500'), clientOrderId: 'tk-1', ioc: true });
    expect(taker.left.isZero()).toBe(true);
    expect(taker.dealStock.eq(D('0.1'))).toBe(true);
    const mine = await alice.deals({ market: 'ETH_USDT' });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ market: 'ETH_USDT', role: 'maker', side: 'sell', clientOrderId: 'mk-1' });
    expect(fmt(mine[0]!.deal)).toBe('250');
    expect(fmt(mine[0]!.fee)).toBe('0.25');
    expect((await bob.deals())[0]).toMatchObject({ market: 'ETH_USDT', role: 'taker' });
    const after = await alice.tradeBalance();
    expect(after.USDT!.available.minus(before.USDT!.available).toFixed()).toBe('249.75');
  });

  it('validation and business refusals come back typed with venue code and errors map', async () => {
    const { alice } = await clients();
    const small = alice.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.001'), price: D('1'), clientOrderId: 'v-1' });
    await expect(small).rejects.toBeInstanceOf(RequestValidationError);
    await expect(small).rejects.toMatchObject({ venueCode: 30, status: 422, endpoint: '/api/v4/order/new' });
    const rich = alice.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('1000'), price: D('30000'), clientOrderId: 'v-2' });
    await expect(rich).rejects.toBeInstanceOf(InnerValidationError);
    await expect(rich).rejects.toSatisfy((e) => e instanceof InnerValidationError && (e.errors.amount?.length ?? 0) > 0);
  });

  it('main account: balance, transfer both ways, code creation, investments, kill-switch', async () => {
    const { alice, bob } = await clients();
    const main = await alice.mainBalance();
    expect(fmt(main.USDT!)).toBe('10000');
    await alice.transfer({ ticker: 'USDT', amount: D('100'), from: 'main', to: 'spot' });
    expect(fmt((await alice.mainBalance()).USDT!)).toBe('9900');
    await alice.transfer({ ticker: 'USDT', amount: D('40'), from: 'spot', to: 'main' });
    expect(fmt((await alice.mainBalance()).USDT!)).toBe('9940');

    const created = await alice.createCode({ ticker: 'USDT', amount: D('12.5'), passphrase: 'p@ss!', description: 'gift' });
    expect(created.code.length).toBeGreaterThan(8);
    expect(created.externalId).not.toBe('');
    expect(fmt((await alice.mainBalance()).USDT!)).toBe('9927.5');
    await expect(alice.createCode({ ticker: 'USDT', amount: D('1000000') })).rejects.toBeInstanceOf(InnerValidationError);
    await expect(alice.createCode({ ticker: 'USDT', amount: D('0.123456789') })).rejects.toBeInstanceOf(RequestValidationError);

    const page = await alice.investments({ limit: 5 });
    expect(page.limit).toBe(5);
    expect(page.records.length).toBeGreaterThan(0);
    expect(page.records.length).toBeLessThanOrEqual(5);
    const active = await alice.investments({ status: 1 });
    expect(active.records.every((r) => r.status === 1)).toBe(true);
    await expect(alice.investments({ limit: 500 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(bob.investments()).rejects.toSatisfy((e) => e instanceof AuthError && e.status === 403);

    const timer = await alice.killSwitch('BTC_USDT', 30);
    expect(timer?.market).toBe('BTC_USDT');
    expect(timer!.cancellationTime - timer!.startTime).toBeCloseTo(30, 0);
    await expect(alice.killSwitch('BTC_USDT', null)).resolves.toBeNull();
  });

  it('a wrong secret is an AuthError, and concurrent requests survive nonce races', async () => {
    const s = await sim();
    const acc = simAccount(s, true);
    const wrong = new RestClient({ baseUrl: s.baseUrl, dialect, apiKey: acc.apiKey, apiSecret: 'not-the-secret' });
    open.push(wrong);
    await expect(wrong.tradeBalance()).rejects.toBeInstanceOf(AuthError);
    const { alice } = await clients();
    const results = await Promise.all(Array.from({ length: 40 }, () => alice.tradeBalance('BTC')));
    expect(results.every((b) => b.BTC !== undefined)).toBe(true);
  });
});

describe('RestClient against a sim with tighter limits than the client expects', () => {
  const sim = useSim({ flow: false, rateLimits: { orders: { limit: 3, windowMs: 1000 } } });

  it('429 (plain text) backs off and retries until the window has room', async () => {
    const s = await sim();
    const acc = simAccount(s, true);
    const client = new RestClient({
      baseUrl: s.baseUrl,
      apiKey: acc.apiKey,
      apiSecret: acc.apiSecret,
      rateLimiter: false,
      retry: { limit: 6, rateLimitBaseMs: 250, maxMs: 1000, jitter: 0.2 },
    });
    try {
      const lists = await Promise.all(Array.from({ length: 6 }, () => client.openOrders()));
      expect(lists).toHaveLength(6);
      expect(s.stats.tooManyRequests).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  });
});
