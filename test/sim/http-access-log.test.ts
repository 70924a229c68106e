import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../../src/sim/http/server.js';
import { simAccount, withSim } from '../helpers/with-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/** The access-log hook (`bot sim --verbose`): one entry per request, nothing secret in it. */
describe('access log', () => {
  it('records method, path, status and venue code, and never the secret, payload, signature or created code', async () => {
    const entries: AccessEntry[] = [];
    await withSim({ flow: false, onRequest: (e) => entries.push(e) }, async (s) => {
      const a = simAccount(s, false);
      await publicGet(s.baseUrl, '/api/v4/public/ping');
      const created = await signedPost(s.baseUrl, '/api/v4/main-account/codes', a, { ticker: 'USDT', amount: '1', passphrase: 'Secret-Pass1' });
      const code = (created.json as { code: string }).code;
      await signedPost(s.baseUrl, '/api/v4/order/new', a, { market: 'BTC_USDT', side: 'buy', amount: 'x', price: '1' });
      expect(entries.map((e) => [e.method, e.path, e.status, e.venueCode])).toEqual([
        ['GET', '/api/v4/public/ping', 200, undefined],
        ['POST', '/api/v4/main-account/codes', 201, undefined],
        ['POST', '/api/v4/order/new', 422, 32],
      ]);
      const text = JSON.stringify(entries);
      for (const secret of [a.apiSecret, code, 'Secret-Pass1']) expect(text).not.toContain(secret);
    });
  });
});
