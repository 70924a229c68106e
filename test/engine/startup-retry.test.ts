import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { withStartupRetries } from '../../src/engine/startup-retry.js';
import { FaultInjector, type FaultConfig } from '../../src/sim/http/faults.js';
import { AuthError } from '../../src/venue/errors.js';
import { simAccount, withSim } from '../helpers/with-sim.js';
import { journalAt } from '../helpers/daemon-child.js';
import { waitUntil } from '../helpers/wait-until.js';

const dir = mkdtempSync(join(tmpdir(), 'startup-retry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('withStartupRetries', () => {
  it('repeats a failing look-up with doubling pauses, then gives up with the last error', async () => {
    const pauses: number[] = [];
    let calls = 0;
    const value = await withStartupRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`fail ${calls}`);
        return 'ok';
      },
      { delay: async (ms) => void pauses.push(ms) },
    );
    expect([value, calls, pauses]).toEqual(['ok', 3, [250, 500]]);
    await expect(
      withStartupRetries(async () => Promise.reject(new Error('down')), { attempts: 4, maxMs: 600, delay: async (ms) => void pauses.push(ms) }),
    ).rejects.toThrow('down');
    expect(pauses.slice(2)).toEqual([250, 500, 600]);
  });

  it('does not repeat an authentication failure: the key will not become right by waiting (issue 24: 16 s of retries)', async () => {
    let calls = 0;
    const refused = new AuthError('Unauthorized request.', { endpoint: '/api/v4/orders', status: 401, venueCode: 10 });
    await expect(withStartupRetries(async () => Promise.reject(((calls += 1), refused)), { delay: async () => undefined })).rejects.toBe(refused);
    expect(calls).toBe(1);
  });
});

/** A seed whose first `orders` answer is garbage and whose second is not (the fault draws are seeded). */
function seedWithGarbageFirst(): FaultConfig {
  for (let seed = 1; seed < 1000; seed++) {
    const config: FaultConfig = { seed, endpoints: { orders: { garbage: 0.5, garbageKinds: ['html'] } } };
    const inj = new FaultInjector(config);
    if (inj.plan('orders').garbage !== undefined && inj.plan('orders').garbage === undefined) return config;
  }
  throw new Error('no seed');
}

describe('daemon start-up against a venue that answers garbage once (chaos finding)', () => {
  it('a garbage answer to the start-up open-orders look-up is retried, not the end of the daemon', async () => {
    await withSim({ flow: false, faults: seedWithGarbageFirst() }, async (sim) => {
      const account = simAccount(sim, false);
      const configPath = join(dir, 'daemon.yaml');
      writeFileSync(
        configPath,
        [
          'venue:',
          '  kind: rest',
          `  baseUrl: ${sim.baseUrl}`,
          '  apiKey: ${K}',
          '  apiSecret: ${S}',
          'strategies: [{ id: g, use: grid, market: BTC_USDT, params: { lower: 29000, upper: 31000, levels: 5, amount: 0.001 }, risk: { unlimited: true } }]',
          `journal: { path: ${join(dir, 'journal.jsonl')} }`,
          `log: { level: warn, file: ${join(dir, 'daemon.log')} }`,
        ].join('\n'),
      );
      const out = new PassThrough();
      // stops as soon as the runtime started (its 'start' record), which the garbage answer must not have prevented
      const journalPath = join(dir, 'journal.jsonl');
      const started = waitUntil('the runtime’s start record', () => journalAt(journalPath).some((r) => r.type === 'start'));
      const summary = await runDaemon({ configPath, env: { K: account.apiKey, S: account.apiSecret }, out, until: started });
      expect(sim.stats.faults.get('orders:garbage:html')).toBeGreaterThanOrEqual(1);
      expect(summary.strategies.map((s) => s.id)).toEqual(['g']);
    });
  }, 30_000);
});
