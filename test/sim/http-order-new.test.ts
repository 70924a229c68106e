import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/**
 * POST /api/v4/order/new over real HTTP: every row of the contract's error table and every numbered
 * rule (api-v4.md), with the statuses of exchange-facts §4. Market BTC_USDT of the default config:
 * amount step 0.000001, min amount 0.001, price step 0.01, min total 5.05.
 */
const PATH = '/api/v4/order/new';
const ok = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '20000' };

interface Row {
  readonly name: string;
  readonly fields: Record<string, unknown>;
  readonly code: number;
  readonly key: string;
  readonly message?: string;
}

const without = (key: string): Record<string, unknown> => Object.fromEntries(Object.entries(ok).filter(([k]) => k !== key));

const ROWS: Row[] = [
  { name: '30 market missing', fields: without('market'), code: 30, key: 'market' },
  { name: '30 side missing', fields: without('side'), code: 30, key: 'side' },
  { name: '30 amount missing', fields: without('amount'), code: 30, key: 'amount' },
  { name: '30 price missing', fields: without('price'), code: 30, key: 'price' },
  { name: '30 side not buy/sell', fields: { ...ok, side: 'long' }, code: 30, key: 'side', message: 'The side must be one of buy, sell.' },
  {
    name: '30 total below minimum (rule 5)',
    fields: { ...ok, amount: '0.001', price: '5' },
    code: 30,
    key: 'total',
    message: 'Total(amount * price) is less than 5.05',
  },
  { name: '31 market not available', fields: { ...ok, market: 'DOGE_USDT' }, code: 31, key: 'market', message: 'Market is not available.' },
  { name: '31 market empty string', fields: { ...ok, market: '' }, code: 31, key: 'market', message: 'Market is not available.' },
  { name: '32 amount not numeric', fields: { ...ok, amount: 'lots' }, code: 32, key: 'amount', message: 'The amount must be a number.' },
  {
    name: '32 amount below minimum',
    fields: { ...ok, amount: '0.0005', price: '20000' },
    code: 32,
    key: 'amount',
    message: 'Given amount is less than min amount 0.001',
  },
  { name: '32 amount off step', fields: { ...ok, amount: '0.0100001' }, code: 32, key: 'amount', message: 'Min amount step = 0.000001' },
  { name: '33 price not numeric', fields: { ...ok, price: 'cheap' }, code: 33, key: 'price', message: 'The price must be a number.' },
  { name: '33 price off step', fields: { ...ok, price: '20000.001' }, code: 33, key: 'price', message: 'Min price step = 0.01' },
  {
    name: '33 price below minimum',
    fields: { ...ok, price: '0.001', amount: '10000' },
    code: 33,
    key: 'price',
    message: 'The Price should be greater than or equal to 0.01',
  },
  { name: '33 price not greater than 0', fields: { ...ok, price: '0' }, code: 33, key: 'price' },
  { name: '33 price negative', fields: { ...ok, price: '-5' }, code: 33, key: 'price' },
  { name: '35 incorrect maker fee (the sim reads it from a maker_fee field)', fields: { ...ok, maker_fee: 'free' }, code: 35, key: 'maker_fee' },
  { name: '35 maker fee out of range', fields: { ...ok, makerFee: '-1' }, code: 35, key: 'maker_fee' },
  { name: '33 price beyond what the book can hold', fields: { ...ok, side: 'sell', price: '100000000000000000000' }, code: 33, key: 'price' },
  { name: '36 client order id not a string', fields: { ...ok, client_order_id: 12 }, code: 36, key: 'client_order_id' },
  { name: '36 client order id bad characters', fields: { ...ok, client_order_id: 'a b!' }, code: 36, key: 'client_order_id' },
  { name: '37 ioc with postOnly (rule 2)', fields: { ...ok, ioc: true, postOnly: true }, code: 37, key: 'ioc' },
  { name: '37 ioc with rpi (rule 2)', fields: { ...ok, ioc: true, rpi: true }, code: 37, key: 'ioc' },
];

describe('order/new request validation (422)', () => {
  const sim = useSim({ flow: false });

  it.each(ROWS)('$name', async (row) => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), row.fields);
    expect(r.status).toBe(422);
    const body = r.json as { code: number; message: string; errors: Record<string, string[]> };
    expect(body.code).toBe(row.code);
    expect(body.message).toBe('Validation failed');
    expect(body.errors[row.key], JSON.stringify(body.errors)).toBeDefined();
    if (row.message !== undefined) expect(body.errors[row.key]).toContain(row.message);
    // Nothing was placed.
    expect(s.exchange.openOrders(simAccount(s, false).name)).toEqual([]);
  });

  it('36: a client order id already used by the account (rule 3), in either spelling', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    expect((await signedPost(s.baseUrl, PATH, a, { ...ok, client_order_id: 'grid-1' })).status).toBe(200);
    const again = await signedPost(s.baseUrl, PATH, a, { ...ok, clientOrderId: 'grid-1' });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ code: 36, errors: { clientOrderId: [expect.any(String)] } });
    // Unique within the account only: another account may use it.
    expect((await signedPost(s.baseUrl, PATH, simAccount(s, true), { ...ok, client_order_id: 'grid-1' })).status).toBe(200);
  });

  it('35 ranks after 33 and before 36', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const after33 = await signedPost(s.baseUrl, PATH, a, { ...ok, price: '1.001', maker_fee: 'x' });
    expect(after33.json).toMatchObject({ code: 33, errors: { price: [expect.any(String)], maker_fee: ['Incorrect maker fee.'] } });
    const before36 = await signedPost(s.baseUrl, PATH, a, { ...ok, maker_fee: 'x', client_order_id: 'a b' });
    expect(before36.json).toMatchObject({ code: 35 });
    // A valid maker fee changes nothing.
    expect((await signedPost(s.baseUrl, PATH, a, { ...ok, maker_fee: '0.1' })).status).toBe(200);
  });

  it('rule 3: letters, digits and dashes are accepted', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, client_order_id: 'Abc-123-x' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ client_order_id: 'Abc-123-x' });
  });

  it('rule 6: messages state the market limits (a market with other limits gives other numbers)', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { market: 'ETH_USDT', side: 'buy', amount: '0.00001', price: '2000.001' });
    expect(r.json).toMatchObject({
      errors: { amount: ['Given amount is less than min amount 0.001', 'Min amount step = 0.0001'], price: ['Min price step = 0.01'] },
    });
  });

  it('the first violation gives the code; every violated field is in errors', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { market: 'BTC_USDT', side: 'buy', amount: '0.0001', price: '20000.001' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 32, errors: { amount: ['Given amount is less than min amount 0.001'], price: ['Min price step = 0.01'] } });
  });
});

describe('order/new acceptance and inner validation', () => {
  const sim = useSim({ flow: false });

  it('answers the order record; amount and price may be plain numbers', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, amount: 0.01, price: 20000 });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      client_order_id: '',
      market: 'BTC_USDT',
      side: 'buy',
      type: 'limit',
      amount: '0.01',
      price: '20000',
      left: '0.01',
      deal_stock: '0',
      deal_money: '0',
      deal_fee: '0',
      postOnly: false,
      ioc: false,
      rpi: false,
      stp: 'no',
      status: 'NEW',
    });
    expect(Number.isInteger((r.json as { order_id: number }).order_id)).toBe(true);
  });

  it('a limit order the trade balance cannot cover → 400 code 10 Inner validation failed', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, amount: '100', price: '30000' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } });
  });

  it('a post-only order that would take is refused as inner validation, and nothing trades', async () => {
    const s = await sim();
    const [maker, taker] = [simAccount(s, true), simAccount(s, false)];
    expect((await signedPost(s.baseUrl, PATH, maker, { ...ok, side: 'sell', price: '20000' })).status).toBe(200);
    const r = await signedPost(s.baseUrl, PATH, taker, { ...ok, side: 'buy', price: '20001', postOnly: true });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 10, errors: { postOnly: [expect.any(String)] } });
    expect(s.exchange.deals(taker.name)).toEqual([]);
  });

  it('stp short forms are accepted and answered in the long form', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, stp: 'co' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ stp: 'cancel_old' });
    const bad = await signedPost(s.baseUrl, PATH, simAccount(s, false), { ...ok, stp: 'sometimes' });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: 30, errors: { stp: [expect.any(String)] } });
  });

  it('ioc fills what it can and cancels the rest', async () => {
    const s = await sim();
    const [maker, taker] = [simAccount(s, true), simAccount(s, false)];
    const sell = await signedPost(s.baseUrl, PATH, maker, { ...ok, side: 'sell', amount: '0.01', price: '20000' });
    expect(sell.json).toMatchObject({ status: 'NEW' });
    const r = await signedPost(s.baseUrl, PATH, taker, { ...ok, side: 'buy', amount: '0.03', price: '20000', ioc: true });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ deal_stock: '0.01', left: '0.02', ioc: true });
    expect(s.exchange.openOrders(taker.name)).toEqual([]);
  });

  it('rule 1: an rpi order is hidden from the public book and visible in own open orders', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const r = await signedPost(s.baseUrl, PATH, a, { ...ok, price: '20000.5', rpi: true });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ rpi: true });
    const book = await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT');
    expect((book.json as { bids: string[][] }).bids.map((l) => l[0])).not.toContain('20000.5');
    const open = await signedPost(s.baseUrl, '/api/v4/orders', a, { market: 'BTC_USDT' });
    expect((open.json as Array<{ price: string; rpi: boolean }>).filter((o) => o.rpi).map((o) => o.price)).toEqual(['20000.5']);
  });
});
