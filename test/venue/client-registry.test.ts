import { afterEach, describe, expect, it } from 'vitest';
import { RestClient } from '../../src/venue/rest-client.js';
import { startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('clients of the same key in one process', () => {
  it('share one nonce sequence and one rate-limit budget', async () => {
    server = await startScriptedServer(() => ({ status: 200, body: '{"BTC":{"available":"1","freeze":"0"}}' }));
    const opts = { baseUrl: server.baseUrl, apiKey: 'same-key', apiSecret: 'x' };
    const a = new RestClient(opts);
    const b = new RestClient(opts);
    const other = new RestClient({ ...opts, apiKey: 'other-key' });
    try {
      await Promise.all([...Array.from({ length: 10 }, () => a.tradeBalance()), ...Array.from({ length: 10 }, () => b.tradeBalance())]);
      await other.tradeBalance();
      const nonces = server.seen.filter((r) => r.headers['x-txc-apikey'] === 'same-key').map((r) => JSON.parse(r.body).nonce as string);
      expect(new Set(nonces).size).toBe(20);
      const admitted = (c: RestClient): number | undefined => c.limiterStats().find((s) => s.bucket === 'tradeBalance')?.admitted;
      expect(admitted(a)).toBe(20);
      expect(admitted(b)).toBe(20);
      expect(admitted(other)).toBe(1);
      a.close();
      // b still holds the lease: the shared limiter keeps working
      await expect(b.tradeBalance()).resolves.toBeDefined();
    } finally {
      b.close();
      other.close();
    }
  });
});
