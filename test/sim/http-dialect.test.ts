import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { signedPost } from '../helpers/sim-request.js';

/** exchange-facts §8: answers in the configured spelling, requests accepted in either. */
const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '20000' };

describe('field-name dialects', () => {
  const sim = useSim({ flow: false });

  it('contract (default): snake_case order record', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, '/api/v4/order/new', simAccount(s, false), { ...order, clientOrderId: 'live-spelling' });
    expect(r.status).toBe(200);
    const record = r.json as Record<string, unknown>;
    expect(record).toMatchObject({ client_order_id: 'live-spelling', deal_money: '0', deal_stock: '0', deal_fee: '0' });
    expect(typeof record['order_id']).toBe('number');
    for (const camel of ['orderId', 'clientOrderId', 'dealMoney', 'dealStock', 'dealFee']) expect(record).not.toHaveProperty(camel);
  });

  it('exchange: camelCase ids and deal fields, activation_price stays snake_case', async () => {
    const s = await sim({ dialect: 'exchange' });
    const a = simAccount(s, false);
    const r = await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, client_order_id: 'contract-spelling' });
    const record = r.json as Record<string, unknown>;
    expect(record).toMatchObject({ clientOrderId: 'contract-spelling', dealMoney: '0', dealStock: '0', dealFee: '0' });
    expect(typeof record['orderId']).toBe('number');
    for (const snake of ['order_id', 'client_order_id', 'deal_money', 'deal_stock', 'deal_fee']) expect(record).not.toHaveProperty(snake);
    const stop = await signedPost(s.baseUrl, '/api/v4/order/stop_limit', a, { ...order, price: '31000', activation_price: '30500', clientOrderId: 's1' });
    expect(stop.json).toMatchObject({ activation_price: '30500', clientOrderId: 's1', type: 'stop limit' });
    const open = (await signedPost(s.baseUrl, '/api/v4/orders', a)).json as Array<Record<string, unknown>>;
    expect(open.map((o) => o['clientOrderId']).sort()).toEqual(['contract-spelling', 's1']);
  });

  it('exchange: a validation error names the client order id the way the request spelled it', async () => {
    const s = await sim({ dialect: 'exchange' });
    const r = await signedPost(s.baseUrl, '/api/v4/order/new', simAccount(s, false), { ...order, clientOrderId: 'bad id' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 36, errors: { clientOrderId: [expect.any(String)] } });
  });
});
