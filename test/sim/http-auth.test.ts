import { describe, expect, it } from 'vitest';
import { expectedSignature } from '../../src/sim/http/auth.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { nextNonce, sign, signedPost } from '../helpers/sim-request.js';

/** Every authentication failure of exchange-facts §1, over real HTTP, with requests signed here. */
const BALANCE = '/api/v4/main-account/balance';
const err = (code: number, message: string) => ({ code, message, errors: {} });

describe('sim auth (exchange-facts §1)', () => {
  const sim = useSim({ flow: false });

  it('matches the known check value of exchange-facts §1', () => {
    const body = '{"request":"/api/v4/order/new","nonce":"1700000000000","nonceWindow":false,"market":"BTC_USDT","side":"buy","amount":"0.01","price":"30000"}';
    const payload = Buffer.from(body).toString('base64');
    expect(expectedSignature(payload, 's')).toBe(
      'ac3fe0a34a8002a196ee9ac6d965410b896c6c71fe3d4579ef6a6a0e964a8ba465c37e542c5573b6a7bc984da56ed12994a1ed54df8ab6e3871b0f11573ce446',
    );
  });

  it('accepts a correctly signed request', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, BALANCE, simAccount(s, false));
    expect(r.status).toBe(200);
    expect(r.json).toHaveProperty('USDT.main_balance', '10000');
  });

  it('payload header missing or empty → 401 code 0 Payload not provided.', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    for (const payload of [null, '']) {
      const r = await signedPost(s.baseUrl, BALANCE, a, {}, { payload });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(err(0, 'Payload not provided.'));
    }
  });

  it('body differs from the decoded payload → 400 code 9 Invalid payload.', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const signedBody = JSON.stringify({ request: BALANCE, nonce: nextNonce() });
    const r = await signedPost(s.baseUrl, BALANCE, a, {}, { bodyText: signedBody, sentBody: signedBody.replace('}', ',"x":1}') });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(err(9, 'Invalid payload.'));
    // A re-serialised body (extra space) is different bytes too.
    const spaced = await signedPost(s.baseUrl, BALANCE, a, {}, { bodyText: signedBody, sentBody: signedBody.replace(':', ': ') });
    expect(spaced.status).toBe(400);
    expect(spaced.json).toEqual(err(9, 'Invalid payload.'));
  });

  it('payload that is not valid JSON (or not an object) → 400 code 9', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    for (const bodyText of ['{"request":', '[1,2]', '"text"']) {
      const r = await signedPost(s.baseUrl, BALANCE, a, {}, { bodyText });
      expect(r.status, bodyText).toBe(400);
      expect(r.json).toEqual(err(9, 'Invalid payload.'));
    }
  });

  it('unknown key, missing key or wrong signature → 401 code 10 Unauthorized request.', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const cases = [
      { apiKey: 'not-a-key' },
      { apiKey: null },
      { signature: sign('something else', a.apiSecret) },
      { signature: null },
      // Upper-case hex is not the lowercase hex the venue compares against.
      { signature: 'X'.repeat(128) },
    ];
    for (const o of cases) {
      const r = await signedPost(s.baseUrl, BALANCE, a, {}, o);
      expect(r.status, JSON.stringify(o)).toBe(401);
      expect(r.json).toEqual(err(10, 'Unauthorized request.'));
    }
    // Signed with another account's secret.
    const other = simAccount(s, true);
    const r = await signedPost(s.baseUrl, BALANCE, { apiKey: a.apiKey, apiSecret: other.apiSecret });
    expect(r.status).toBe(401);
  });

  it('signature over the raw JSON instead of the Base64 payload → 401', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const bodyText = JSON.stringify({ request: BALANCE, nonce: nextNonce() });
    const r = await signedPost(s.baseUrl, BALANCE, a, {}, { bodyText, signature: sign(bodyText, a.apiSecret) });
    expect(r.status).toBe(401);
    expect(r.json).toEqual(err(10, 'Unauthorized request.'));
  });

  it('request missing or not the path called → 400 Request not provided.', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const missing = await signedPost(s.baseUrl, BALANCE, a, {}, { noRequest: true });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual(err(0, 'Request not provided.'));
    const other = await signedPost(s.baseUrl, BALANCE, a, { request: '/api/v4/trade-account/balance' });
    expect(other.status).toBe(400);
    expect(other.json).toEqual(err(0, 'Request not provided.'));
  });

  it('nonce missing → 400 Nonce not provided.', async () => {
    const s = await sim();
    const r = await signedPost(s.baseUrl, BALANCE, simAccount(s, false), {}, { noNonce: true });
    expect(r.status).toBe(400);
    expect(r.json).toEqual(err(0, 'Nonce not provided.'));
  });

  it('nonce not larger than the last → 400 "Too many requests." (a nonce error, not a 429)', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const nonce = nextNonce();
    expect((await signedPost(s.baseUrl, BALANCE, a, { nonce })).status).toBe(200);
    for (const again of [nonce, String(Number(nonce) - 1)]) {
      const r = await signedPost(s.baseUrl, BALANCE, a, { nonce: again });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(err(0, 'Too many requests.'));
    }
    // Nonces are per key: the other account is unaffected.
    expect((await signedPost(s.baseUrl, BALANCE, simAccount(s, true), { nonce })).status).toBe(200);
  });

  it('nonceWindow: any order within ±5 s, unique; off by more than 5 s → 400', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    const now = Date.now();
    const older = String(now - 2_000);
    expect((await signedPost(s.baseUrl, BALANCE, a, { nonce: String(now), nonceWindow: true })).status).toBe(200);
    expect((await signedPost(s.baseUrl, BALANCE, a, { nonce: older, nonceWindow: true })).status).toBe(200);
    const dup = await signedPost(s.baseUrl, BALANCE, a, { nonce: older, nonceWindow: true });
    expect(dup.status).toBe(400);
    expect(dup.json).toEqual(err(0, 'Too many requests.'));
    const stale = await signedPost(s.baseUrl, BALANCE, a, { nonce: String(now - 60_000), nonceWindow: true });
    expect(stale.status).toBe(400);
    expect(stale.json).toEqual(err(0, 'Your nonce is more than 5 seconds lesser than the current nonce'));
  });

  it('a key that is not a business partner may not read investments → 403', async () => {
    const s = await sim();
    const path = '/api/v4/main-account/smart/investments';
    const r = await signedPost(s.baseUrl, path, simAccount(s, false));
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ code: 0, message: "You don't have permission to use this endpoint. Please contact support for more details" });
    expect((await signedPost(s.baseUrl, path, simAccount(s, true))).status).toBe(200);
  });
});
