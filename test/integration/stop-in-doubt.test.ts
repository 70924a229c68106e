import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { parseJournalText } from '../../src/engine/journal.js';
import { readFileSync } from 'node:fs';
import { startSim } from '../../src/sim/start-sim.js';
import { journalAt } from '../helpers/daemon-child.js';
import { waitUntil } from '../helpers/wait-until.js';

const dir = mkdtempSync(join(tmpdir(), 'stop-in-doubt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * #24 item 3: a venue slower than the client's timeout acts on orders the client gave up on. Stopped while those
 * orders are in doubt, the daemon must settle each (waiting out the venue's nonce window), cancel those that turn out
 * placed, and report as "open at stop" what the venue lists afterwards: nothing may rest behind it.
 */
describe('stop with orders in doubt', () => {
  it('resolves every unknown order before it reports and cancels those that turn out placed: the venue lists none of ours', async () => {
    // every order/new is held 1.8 s before the venue acts; the client gives up after 1 s
    const sim = await startSim({ port: 0, host: '127.0.0.1', faults: { seed: 1, endpoints: { orderNew: { timeout: 1, timeoutMs: 1_800 } } } });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
      const journalPath = join(dir, 'journal.jsonl');
      const configPath = join(dir, 'daemon.yaml');
      writeFileSync(
        configPath,
        [
          'venue:',
          '  kind: rest',
          `  baseUrl: ${sim.baseUrl}`,
          `  apiKey: ${account.apiKey}`,
          '  apiSecret: ${TEST_SECRET}',
          '  timeoutMs: 1000',
          'strategies:',
          '  - id: mm-btc',
          '    use: market-maker',
          '    market: BTC_USDT',
          '    params: { spread: 0.002, size: 0.002, levels: 2, levelSpacing: 0.001, maxInventory: 0.02, refreshThreshold: 0.001, postOnly: true }',
          '    risk: { maxOrderNotional: 1000, maxInventory: { BTC: 0.05 }, maxOpenOrders: 8, maxLoss: 100 }',
          'polling: { bookMs: 300, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000 }',
          `journal: { path: ${journalPath} }`,
          `log: { level: warn, file: ${join(dir, 'daemon.log')} }`,
          'shutdown: { cancelOpenOrders: true }',
        ].join('\n'),
      );
      const out = new PassThrough();
      let printed = '';
      out.on('data', (c: Buffer) => (printed += c.toString()));
      // stopped while the first orders are still held by the venue: their outcome is unknown at the stop (the client
      // gave up after 1 s, the venue acts at 1.8 s)
      const inDoubt = waitUntil('an order journalled unknown', () => journalAt(journalPath).some((r) => r.type === 'outcome' && r.state === 'unknown'), {
        timeoutMs: 30_000,
      });
      const summary = await runDaemon({ configPath, env: { TEST_SECRET: account.apiSecret }, out, until: inDoubt });
      const records = parseJournalText(readFileSync(journalPath, 'utf8')).records;
      expect(records.some((r) => r.type === 'outcome' && r.state === 'unknown')).toBe(true);
      // every order the venue ever held for us was acted on by now (held 1.8 s); none of it rests
      expect(sim.exchange.openOrders(accountId)).toHaveLength(0);
      // and still none once the venue has answered every order/new it held (however late)
      await waitUntil('every held order/new acted on', () => sim.stats.arrivals.filter((a) => a.endpoint === 'orderNew').every((a) => a.status !== 0));
      expect(sim.exchange.openOrders(accountId)).toHaveLength(0);
      expect(summary.openOrdersLeft).toBe(0);
      expect(summary.openAtStop).toEqual([]);
      expect(summary.inDoubt).toEqual([]);
      // the journal ends with no order left unknown or pending
      const last = new Map<string, string>();
      for (const r of records) if (r.type === 'outcome') last.set(r.clientOrderId, r.state);
      expect([...last.values()].filter((s) => s === 'unknown' || s === 'pending')).toEqual([]);
      expect(printed).toMatch(/open at stop 0/);
    } finally {
      await sim.close();
    }
  }, 60_000);
});
