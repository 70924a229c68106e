import { describe, expect, it } from 'vitest';
import { simAccount, useSim, withSim } from '../helpers/with-sim.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';
import { waitUntil } from '../helpers/wait-until.js';

/** The public endpoints and the extra private endpoints of exchange-facts §6, over real HTTP. */
const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '20000' };

describe('public endpoints', () => {
  const sim = useSim({ flow: false });

  it('ping → ["pong"]', async () => {
    const s = await sim();
    const r = await publicGet(s.baseUrl, '/api/v4/public/ping');
    expect(r.status).toBe(200);
    expect(r.json).toEqual(['pong']);
  });

  it('markets: precisions as strings, fees as percent strings, maxTotal "0" for no cap', async () => {
    const s = await sim();
    const r = await publicGet(s.baseUrl, '/api/v4/public/markets');
    expect(r.json).toContainEqual(
      expect.objectContaining({
        name: 'BTC_USDT',
        stock: 'BTC',
        money: 'USDT',
        stockPrec: '6',
        moneyPrec: '2',
        makerFee: '0.1',
        takerFee: '0.1',
        minAmount: '0.001',
        minTotal: '5.05',
        maxTotal: '0',
        tradesEnabled: true,
      }),
    );
  });

  it('assets: keyed by ticker', async () => {
    const s = await sim();
    const r = await publicGet(s.baseUrl, '/api/v4/public/assets');
    expect(Object.keys(r.json as object).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    expect(r.json).toHaveProperty('BTC.can_deposit', true);
  });

  it('order book: limit (0/absent = 100), level aggregation, sorted sides, whole-second timestamp', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    for (const price of ['19999.01', '19999.02', '19998.5', '19990']) await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, price });
    const full = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=0')).json as {
      ticker_id: string;
      timestamp: number;
      bids: string[][];
      asks: string[][];
    };
    expect(full.ticker_id).toBe('BTC_USDT');
    expect(Number.isInteger(full.timestamp)).toBe(true);
    expect(full.bids.map((l) => l[0])).toEqual(['19999.02', '19999.01', '19998.5', '19990']);
    expect(full.asks).toEqual([]);
    const two = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=2')).json as { bids: string[][] };
    expect(two.bids).toEqual([
      ['19999.02', '0.01'],
      ['19999.01', '0.01'],
    ]);
    // level 2 = a grid of 100 price steps (1.00 USDT); bids round down.
    const coarse = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?level=2')).json as { bids: string[][] };
    expect(coarse.bids).toEqual([
      ['19999', '0.02'],
      ['19998', '0.01'],
      ['19990', '0.01'],
    ]);
  });

  it('order book is cached for 100 ms', async () => {
    const s = await sim();
    const before = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=5')).json;
    s.exchange.placeLimit(simAccount(s, false).name, {
      market: 'BTC_USDT',
      side: 'buy',
      amount: s.exchange.markets.get('BTC_USDT')!.minAmount.mul(10),
      price: s.exchange.markets.get('BTC_USDT')!.minTotal.mul(1000),
    });
    const cached = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=5')).json;
    const elapsed = s.stats.arrivalTimes('orderbook');
    // Only meaningful when both requests fell within the cache lifetime (no timing assertion on the machine).
    if (elapsed[1]! - elapsed[0]! < 100) expect(cached).toEqual(before);
    // the cache lets the book go 100 ms after it took it (at the first request's arrival)
    await waitUntil('the cache to let the book go', () => Date.now() - elapsed[0]! > 100);
    const fresh = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=5')).json as { bids: string[][] };
    expect(fresh.bids).toEqual([['5050', '0.01']]);
  });

  it.each([
    ['unknown market', '/api/v4/public/orderbook/NOPE_USDT', 'market'],
    ['limit 101', '/api/v4/public/orderbook/BTC_USDT?limit=101', 'limit'],
    ['level 6', '/api/v4/public/orderbook/BTC_USDT?level=6', 'level'],
    ['level not a number', '/api/v4/public/orderbook/BTC_USDT?level=x', 'level'],
  ])('public error (%s): contract body {success,message,params}', async (_name, path) => {
    const s = await sim();
    const r = await publicGet(s.baseUrl, path);
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ success: false, message: expect.any(String), params: [] });
  });

  it('public error in the exchange dialect: flat 422 {"market":["Market is not available."]}', async () => {
    const s = await sim({ dialect: 'exchange' });
    const r = await publicGet(s.baseUrl, '/api/v4/public/orderbook/NOPE_USDT');
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ market: ['Market is not available.'] });
  });

  it('unknown route or wrong method → 404 with an empty body', async () => {
    const s = await sim();
    for (const path of ['/api/v4/public/nothing', '/api/v4/order/new', '/']) {
      const r = await publicGet(s.baseUrl, path);
      expect(r.status, path).toBe(404);
      expect(r.text).toBe('');
    }
  });
});

describe('private endpoints of exchange-facts §6', () => {
  const sim = useSim({ flow: false });

  it('cancel by orderId and by clientOrderId; not found → 400 code 2', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const placed = (await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, client_order_id: 'c-1' })).json as { order_id: number };
    await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, client_order_id: 'c-2' });
    const byId = await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'BTC_USDT', orderId: placed.order_id });
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ order_id: placed.order_id, status: 'CANCELED' });
    const byClient = await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'BTC_USDT', clientOrderId: 'c-2' });
    expect(byClient.json).toMatchObject({ client_order_id: 'c-2' });
    const again = await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'BTC_USDT', orderId: placed.order_id });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: 2, message: 'Inner validation failed', errors: { orderId: ['Unexecuted order was not found.'] } });
  });

  it('cancel request validation → 422 (31 unknown market, 30 neither or both ids)', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    expect((await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'NOPE_X', orderId: 1 })).json).toMatchObject({
      code: 31,
      errors: { market: [expect.any(String)] },
    });
    expect((await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'BTC_USDT' })).json).toMatchObject({
      code: 30,
      errors: { orderId: [expect.any(String)] },
    });
    expect((await signedPost(s.baseUrl, '/api/v4/order/cancel', a, { market: 'BTC_USDT', orderId: 1, clientOrderId: 'x' })).json).toMatchObject({ code: 30 });
  });

  it('orders: open orders, filtered, paged (limit <= 100)', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    for (const price of ['19000', '19001', '19002']) await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, price });
    await signedPost(s.baseUrl, '/api/v4/order/new', a, { market: 'ETH_USDT', side: 'buy', amount: '0.01', price: '1000' });
    const all = (await signedPost(s.baseUrl, '/api/v4/orders', a)).json as unknown[];
    expect(all).toHaveLength(4);
    const btc = (await signedPost(s.baseUrl, '/api/v4/orders', a, { market: 'BTC_USDT', limit: 2 })).json as Array<{ market: string }>;
    expect(btc).toHaveLength(2);
    expect(btc.every((o) => o.market === 'BTC_USDT')).toBe(true);
    const bad = await signedPost(s.baseUrl, '/api/v4/orders', a, { limit: 101 });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: 30, errors: { limit: [expect.any(String)] } });
  });

  it('trade balance, executed history (array with market, object without), main balance, transfer', async () => {
    const s = await sim();
    const [a, b] = [simAccount(s, false), simAccount(s, true)];
    await signedPost(s.baseUrl, '/api/v4/order/new', b, { ...order, side: 'sell' });
    await signedPost(s.baseUrl, '/api/v4/order/new', a, order);
    const bal = (await signedPost(s.baseUrl, '/api/v4/trade-account/balance', a)).json as Record<string, { available: string; freeze: string }>;
    expect(bal['BTC']).toEqual({ available: '10.01', freeze: '0' });
    expect(bal['USDT']).toEqual({ available: '999799.8', freeze: '0' });
    const one = (await signedPost(s.baseUrl, '/api/v4/trade-account/balance', a, { ticker: 'BTC' })).json;
    expect(one).toEqual({ BTC: { available: '10.01', freeze: '0' } });
    const deals = (await signedPost(s.baseUrl, '/api/v4/trade-account/executed-history', a, { market: 'BTC_USDT' })).json as Array<Record<string, unknown>>;
    expect(deals).toEqual([expect.objectContaining({ side: 'buy', role: 2, amount: '0.01', price: '20000', deal: '200', fee: '0.2' })]);
    const grouped = (await signedPost(s.baseUrl, '/api/v4/trade-account/executed-history', b)).json as Record<string, Array<{ role: number }>>;
    expect(grouped['BTC_USDT']?.map((d) => d.role)).toEqual([1]);
    const transfer = await signedPost(s.baseUrl, '/api/v4/main-account/transfer', a, { ticker: 'BTC', amount: '0.5', from: 'main', to: 'spot' });
    expect(transfer.status).toBe(201);
    expect(transfer.json).toEqual([]);
    expect((await signedPost(s.baseUrl, '/api/v4/main-account/balance', a)).json).toMatchObject({ BTC: { main_balance: '0.5' } });
    const short = await signedPost(s.baseUrl, '/api/v4/main-account/transfer', a, { ticker: 'BTC', amount: '5', from: 'main', to: 'spot' });
    expect(short.status).toBe(422);
    expect(short.json).toMatchObject({ code: 5, errors: { amount: ['Not enough balance.'] } });
    const invalid = await signedPost(s.baseUrl, '/api/v4/main-account/transfer', a, { ticker: 'BTC', amount: '1', from: 'main', to: 'moon' });
    expect(invalid.status).toBe(400);
    expect(invalid.json).toMatchObject({ code: 0, errors: { to: [expect.any(String)] } });
  });

  it("kill switch: arms with a timeout (5-600 s), cancels the market's orders when it expires", async () => {
    const s = await sim();
    const a = simAccount(s, false);
    await signedPost(s.baseUrl, '/api/v4/order/new', a, order);
    const armed = await signedPost(s.baseUrl, '/api/v4/order/kill-switch', a, { market: 'BTC_USDT', timeout: '5' });
    expect(armed.status).toBe(200);
    const { startTime, cancellationTime } = armed.json as { startTime: number; cancellationTime: number };
    expect(cancellationTime - startTime).toBe(5);
    expect((await signedPost(s.baseUrl, '/api/v4/order/kill-switch', a, { market: 'BTC_USDT', timeout: '4' })).status).toBe(422);
    s.exchange.tick(Date.now() + 6_000);
    expect(s.exchange.openOrders(a.name)).toEqual([]);
    expect((await signedPost(s.baseUrl, '/api/v4/order/kill-switch', a, { market: 'BTC_USDT', timeout: null })).status).toBe(200);
  });
});

describe('startSim', () => {
  it('withSim closes the server when the function settles', async () => {
    const baseUrl = await withSim({ flow: false }, async (s) => {
      expect((await publicGet(s.baseUrl, '/api/v4/public/ping')).status).toBe(200);
      return s.baseUrl;
    });
    await expect(publicGet(baseUrl, '/api/v4/public/ping')).rejects.toThrow();
  });

  it('runs the synthetic flow by default: the public book fills and trades happen', async () => {
    const config = parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: 20 });
    await withSim({ config }, async (s) => {
      // Poll (bounded) rather than assert on time: the flow steps on a real-time timer.
      let book = { asks: [] as string[][], bids: [] as string[][] };
      for (let i = 0; i < 100 && (book.asks.length === 0 || book.bids.length === 0 || s.exchange.lastPrice('BTC_USDT') === undefined); i++) {
        await new Promise((r) => setTimeout(r, 50));
        book = (await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT')).json as typeof book;
      }
      expect(book.asks.length).toBeGreaterThan(0);
      expect(book.bids.length).toBeGreaterThan(0);
      expect(Number(book.asks[0]![0])).toBeGreaterThan(Number(book.bids[0]![0]));
      expect(s.exchange.lastPrice('BTC_USDT')).toBeDefined();
    });
  });

  it('flow: false leaves the market empty', async () => {
    // beside a sim started at the same moment with its flow: once that one shows quotes, this one still has none
    await withSim({ flow: false }, (s) =>
      withSim(async (flowing) => {
        await waitUntil('the other sim’s first quotes', () => flowing.exchange.book('BTC_USDT').asks.length > 0);
        expect(s.exchange.book('BTC_USDT').asks).toEqual([]);
        expect(s.exchange.book('BTC_USDT').bids).toEqual([]);
      }),
    );
  });

  it('lists only client accounts, with one partner and one non-partner in the default config', async () => {
    await withSim({ flow: false }, async (s) => {
      expect(s.accounts.map((a) => a.partner).sort()).toEqual([false, true]);
      expect(s.accounts.every((a) => a.apiKey.length >= 8 && a.apiSecret.length >= 8)).toBe(true);
    });
  });
});
