import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { signedPost } from '../helpers/sim-request.js';

/** main-account/codes and main-account/smart/investments (api-v4.md; exchange-facts §4, §7). */
const CODES = '/api/v4/main-account/codes';
const INVESTMENTS = '/api/v4/main-account/smart/investments';

describe('main-account/codes', () => {
  const sim = useSim({ flow: false });

  it('201: creates an unguessable code from the main balance', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const r1 = await signedPost(s.baseUrl, CODES, a, { ticker: 'USDT', amount: '12.5', passphrase: 'P@ss-w0rd!', description: 'gift' });
    const r2 = await signedPost(s.baseUrl, CODES, a, { ticker: 'USDT', amount: '0.00000001' });
    expect(r1.status).toBe(201);
    expect(r2.status).toBe(201);
    const [c1, c2] = [r1.json, r2.json] as Array<{ code: string; message: string; external_id: string }>;
    expect(c1).toMatchObject({ message: 'Code was successfully created' });
    expect(c1!.code.length).toBeGreaterThanOrEqual(32);
    expect(c1!.code).not.toBe(c2!.code);
    expect(c1!.external_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.exchange.mainBalances(a.name)['USDT']?.toFixed()).toBe('9987.49999999');
  });

  it.each([
    ['ticker missing', { amount: '1' }, 'ticker'],
    ['ticker unknown', { ticker: 'XYZ', amount: '1' }, 'ticker'],
    ['amount missing', { ticker: 'USDT' }, 'amount'],
    ['amount zero', { ticker: 'USDT', amount: '0' }, 'amount'],
    ['amount negative', { ticker: 'USDT', amount: '-1' }, 'amount'],
    ['amount with 9 decimals', { ticker: 'USDT', amount: '0.000000001' }, 'amount'],
    ['amount not numeric', { ticker: 'USDT', amount: 'ten' }, 'amount'],
    ['passphrase with whitespace', { ticker: 'USDT', amount: '1', passphrase: 'two words' }, 'passphrase'],
    ['passphrase of 26 characters', { ticker: 'USDT', amount: '1', passphrase: 'a'.repeat(26) }, 'passphrase'],
    ['description of 281 characters', { ticker: 'USDT', amount: '1', description: 'd'.repeat(281) }, 'description'],
  ] as const)('400 code 0 Validation failed: %s → errors.%s', async (_name, fields, key) => {
    const s = await sim();
    const a = simAccount(s, false);
    const r = await signedPost(s.baseUrl, CODES, a, fields);
    expect(r.status).toBe(400);
    const body = r.json as { code: number; message: string; errors: Record<string, string[]> };
    expect(body).toMatchObject({ code: 0, message: 'Validation failed' });
    expect(body.errors[key], JSON.stringify(body.errors)).toBeDefined();
    expect(s.exchange.mainBalances(a.name)['USDT']?.toFixed()).toBe('10000');
  });

  it('passphrase of exactly 25 characters and a description of 280 are accepted', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, CODES, simAccount(s, false), {
      ticker: 'BTC',
      amount: '0.1',
      passphrase: 'A1!'.repeat(8) + 'x',
      description: 'd'.repeat(280),
    });
    expect(r.status).toBe(201);
  });

  it('amount above the main balance → 422 code 5 Not enough balance.', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, CODES, simAccount(s, false), { ticker: 'USDT', amount: '10000.01' });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: 5, errors: { amount: ['Not enough balance.'] } });
  });
});

describe('main-account/smart/investments', () => {
  const sim = useSim({ flow: false });

  it('partner: 200 with offset, limit and records; defaults limit 100, offset 0', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, INVESTMENTS, simAccount(s, true));
    expect(r.status).toBe(200);
    const body = r.json as { offset: number; limit: number; records: Array<{ id: string; status: number; plan: { ticker: string; percent: string } }> };
    expect(body).toMatchObject({ offset: 0, limit: 100 });
    expect(body.records.length).toBeGreaterThan(0);
    expect(typeof body.records[0]!.plan.percent).toBe('string');
  });

  it('filters by id, ticker and status; pages with limit and offset', async () => {
    const s = await sim();
    const a = simAccount(s, true);
    const all = ((await signedPost(s.baseUrl, INVESTMENTS, a)).json as { records: Array<{ id: string; status: 1 | 2; plan: { ticker: string } }> }).records;
    const first = all[0]!;
    const byId = (await signedPost(s.baseUrl, INVESTMENTS, a, { id: first.id })).json as { records: unknown[] };
    expect(byId.records).toEqual([first]);
    const ticker = first.plan.ticker;
    const byTicker = (await signedPost(s.baseUrl, INVESTMENTS, a, { ticker })).json as { records: Array<{ plan: { ticker: string } }> };
    expect(byTicker.records.length).toBe(all.filter((r) => r.plan.ticker === ticker).length);
    const byStatus = (await signedPost(s.baseUrl, INVESTMENTS, a, { status: first.status })).json as { records: Array<{ status: number }> };
    expect(byStatus.records.every((r) => r.status === first.status)).toBe(true);
    const page = (await signedPost(s.baseUrl, INVESTMENTS, a, { limit: 2, offset: 1 })).json as { limit: number; offset: number; records: unknown[] };
    expect(page).toMatchObject({ limit: 2, offset: 1 });
    expect(page.records).toEqual(all.slice(1, 3));
  });

  it.each([
    ['id not a string', { id: 5 }, 'id'],
    ['ticker not a string', { ticker: ['USDT'] }, 'ticker'],
    ['ticker unknown to the exchange', { ticker: 'NOPE' }, 'ticker'],
    ['status 3', { status: 3 }, 'status'],
    ['status as text', { status: 'active' }, 'status'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['offset -1', { offset: -1 }, 'offset'],
    ['offset 10001', { offset: 10_001 }, 'offset'],
  ] as const)('400 code 0 Validation failed: %s → errors.%s', async (_name, fields, key) => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, INVESTMENTS, simAccount(s, true), fields);
    expect(r.status).toBe(400);
    const body = r.json as { code: number; message: string; errors: Record<string, string[]> };
    expect(body).toMatchObject({ code: 0, message: 'Validation failed' });
    expect(body.errors[key], JSON.stringify(body.errors)).toBeDefined();
  });

  it('limit 100 and offset 10000 are the inclusive bounds', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, INVESTMENTS, simAccount(s, true), { limit: 100, offset: 10_000 });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ offset: 10_000, limit: 100, records: [] });
  });
});
