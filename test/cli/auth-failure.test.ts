import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simAccount, withSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 24 item 8: a bad API key made `bot run` retry its start-up look-ups for 16 s, then exit 1 without naming
 * the variables to check. Now the first signed call's 401 ends the start: one line, the keys and BOT_API_KEY /
 * BOT_API_SECRET named, exit 2 (an auth failure is a configuration problem), nothing else sent.
 */
const dir = mkdtempSync(join(tmpdir(), 'auth-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bot run with a key the venue refuses', () => {
  it('exits 2 at once naming venue.apiKey / venue.apiSecret and BOT_API_KEY, BOT_API_SECRET', async () => {
    await withSim({ flow: false }, async (sim) => {
      const account = simAccount(sim, false);
      const file = join(dir, 'rest.yaml');
      writeFileSync(
        file,
        [
          `venue: { kind: rest, baseUrl: "${sim.baseUrl}", apiKey: "\${BOT_API_KEY}", apiSecret: "\${BOT_API_SECRET}" }`,
          'strategies: [{ id: g, use: grid, market: BTC_USDT, params: { lower: 29000, upper: 31000, levels: 5, amount: 0.001 }, risk: { maxOrderNotional: 100, maxLoss: 10 } }]',
          `journal: { path: ${join(dir, 'j.jsonl')} }`,
          'log: { level: silent }',
        ].join('\n'),
      );
      const r = await runBot(['run', file], { BOT_API_KEY: account.apiKey, BOT_API_SECRET: 'not-the-secret-0123' });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `bot: ${file}: venue.apiKey / venue.apiSecret: the venue refused the key (HTTP 401, /api/v4/trade-account/balance: Unauthorized request.): check the venue.apiKey / venue.apiSecret values (BOT_API_KEY, BOT_API_SECRET) [ERR_CONFIG]`,
      ]);
      expect(r.stderr).not.toContain('not-the-secret');
      expect(sim.stats.arrivalTimes('orders')).toHaveLength(0);
    });
  }, 30_000);
});
