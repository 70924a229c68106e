import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { signedPost } from '../helpers/sim-request.js';

/** POST /api/v4/order/stop_limit: the contract's rules 1-3 and its error rows, over real HTTP. */
const PATH = '/api/v4/order/stop_limit';
const ok = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '31000', activation_price: '30500' };

describe('order/stop_limit', () => {
  const sim = useSim({ flow: false });

  it('accepts a valid stop-limit and answers its record with type "stop limit" and the activation price', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, client_order_id: 'stop-1' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ type: 'stop limit', activation_price: '30500', price: '31000', amount: '0.01', client_order_id: 'stop-1', left: '0.01' });
  });

  it('rule 1: insufficient balance → 422 code 32 with errors.amount', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, amount: '100' });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ code: 32, message: 'Validation failed', errors: { amount: ['Not enough balance.'] } });
  });

  it('rule 2: total below the minimum → 30 errors.total', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, amount: '0.001', price: '5000' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 30, errors: { total: ['Total(amount * price) is less than 5.05'] } });
  });

  it('rule 3: amount below the minimum or off the step → 32', async () => {
    const s = await sim();
    for (const [amount, message] of [
      ['0.0005', 'Given amount is less than min amount 0.001'],
      ['0.0100001', 'Min amount step = 0.000001'],
    ]) {
      const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, amount });
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({ code: 32, errors: { amount: [message] } });
    }
  });

  it.each([
    ['activation_price missing', { activation_price: undefined }, 30, 'activation_price'],
    ['market missing', { market: undefined }, 30, 'market'],
    ['side invalid', { side: 'up' }, 30, 'side'],
    ['market unknown', { market: 'NOPE_USDT' }, 31, 'market'],
    ['price not numeric', { price: 'x' }, 33, 'price'],
    ['price off step', { price: '31000.005' }, 33, 'price'],
    ['activation price not numeric', { activation_price: 'soon' }, 33, 'activation_price'],
    ['client order id with bad characters', { client_order_id: 'a/b' }, 36, 'client_order_id'],
  ] as const)('%s → %i on %s', async (_name, patch, code, key) => {
    const s = await sim();
    const fields = JSON.parse(JSON.stringify({ ...ok, ...patch })) as Record<string, unknown>;
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), fields);
    expect(r.status).toBe(422);
    const body = r.json as { code: number; errors: Record<string, string[]> };
    expect(body.code).toBe(code);
    expect(body.errors[key], JSON.stringify(body.errors)).toBeDefined();
  });

  it('a used client order id (from order/new) → 36', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    await signedPost(s.baseUrl, '/api/v4/order/new', a, { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '20000', client_order_id: 'same' });
    const r = await signedPost(s.baseUrl, PATH, a, { ...ok, client_order_id: 'same' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 36, errors: { client_order_id: [expect.any(String)] } });
  });

  it('activates on the last trade price and then rests as a limit order', async () => {
    const s = await sim();
    const [a, b] = [simAccount(s, false), simAccount(s, true)];
    // Sell stop: activates when the last price falls to or below 19990.
    const stop = await signedPost(s.baseUrl, PATH, a, { market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '19900', activation_price: '19990' });
    expect(stop.status).toBe(200);
    expect(s.exchange.book('BTC_USDT').asks).toEqual([]);
    // A trade at 19980 between the two accounts.
    await signedPost(s.baseUrl, '/api/v4/order/new', b, { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '19980' });
    await signedPost(s.baseUrl, '/api/v4/order/new', b, { market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '19980' });
    s.exchange.tick(Date.now());
    expect(s.exchange.book('BTC_USDT').asks.map((l) => l.price.toFixed())).toEqual(['19900']);
  });
});
