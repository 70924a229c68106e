import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { runDaemon } from '../../src/app/daemon.js';
import { parseJournalText } from '../../src/engine/journal.js';
import type { JournalDeal } from '../../src/engine/journal-records.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { startSim } from '../../src/sim/start-sim.js';
import { readFileSync } from 'node:fs';

const dir = mkdtempSync(join(tmpdir(), 'daemon-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Real seconds the daemon runs; the sim's market runs SPEED× faster, so this is several simulated minutes. */
const RUN_MS = 24_000;
const SPEED = 10;

describe('daemon against the simulated exchange (several simulated minutes)', () => {
  it('journals every deal, agrees with the venue on balances to the last decimal, sends nothing the rules reject, never hits 429', async () => {
    const sim = await startSim({ port: 0, config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: SPEED }) });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
      const initial = sim.exchange.tradeBalances(accountId);
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
          'strategies:',
          '  - id: mm-btc',
          '    use: market-maker',
          '    market: BTC_USDT',
          '    params: { spread: 0.0002, size: 0.002, levels: 2, levelSpacing: 0.0001, inventorySkew: 0.0002, maxInventory: 0.02, refreshThreshold: 0.0001 }',
          '    risk: { maxOrderNotional: 1000, maxInventory: { BTC: 0.05 }, maxOpenOrders: 8, maxOrdersPerMinute: 600, maxLoss: 1000 }',
          '  - id: mm-eth',
          '    use: market-maker',
          '    market: ETH_USDT',
          '    params: { spread: 0.0005, size: 0.02, levels: 1, maxInventory: 0.5, refreshThreshold: 0.0002 }',
          '    risk: { unlimited: true }',
          'polling: { bookMs: 400, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000 }',
          `journal: { path: ${journalPath} }`,
          `log: { level: info, file: ${join(dir, 'daemon.log')} }`,
          'status: { everyMs: 2000 }',
          'shutdown: { cancelOpenOrders: true }',
        ].join('\n'),
      );
      const out = new PassThrough();
      let printed = '';
      out.on('data', (c: Buffer) => (printed += c.toString()));
      const summary = await runDaemon({
        configPath,
        env: { TEST_SECRET: account.apiSecret },
        out,
        until: new Promise((r) => setTimeout(r, RUN_MS)),
      });

      const records = parseJournalText(readFileSync(journalPath, 'utf8')).records;
      const journalDeals = new Map<number, JournalDeal>();
      for (const r of records) if (r.type === 'fill') journalDeals.set(r.deal.id, r.deal);
      const venueDeals = sim.exchange.deals(accountId, { limit: 100_000 });
      expect(venueDeals.length).toBeGreaterThan(20);
      // every deal of the venue's ledger is in the journal, with the same figures
      for (const d of venueDeals) {
        const j = journalDeals.get(d.id);
        expect(j, `deal ${d.id}`).toBeDefined();
        expect([j!.amount, j!.price, j!.fee, j!.clientOrderId]).toEqual([d.amount.toFixed(), d.price.toFixed(), d.fee.toFixed(), d.clientOrderId]);
      }
      expect(journalDeals.size).toBe(venueDeals.length);

      // balances: initial + Σ fills − fees (from the journal) = the venue's, exactly; and the journal's last snapshot agrees
      const expected = new Map<string, Decimal>(Object.entries(initial).map(([t, b]) => [t, b.available.plus(b.freeze)]));
      const add = (t: string, v: Decimal) => expected.set(t, (expected.get(t) ?? ZERO).plus(v));
      for (const d of journalDeals.values()) {
        const [stock, money] = d.market.split('_') as [string, string];
        const sign = d.side === 'buy' ? 1 : -1;
        add(stock, D(d.amount).times(sign));
        add(money, D(d.deal).times(-sign).minus(D(d.fee)));
      }
      const final = sim.exchange.tradeBalances(accountId);
      const lastSnapshot = records.filter((r) => r.type === 'balance').at(-1);
      for (const [ticker, b] of Object.entries(final)) {
        expect(b.available.plus(b.freeze).toFixed(), ticker).toBe(expected.get(ticker)?.toFixed());
        expect(b.freeze.toFixed(), `${ticker} locked after cancel-on-stop`).toBe('0');
        expect(lastSnapshot?.type === 'balance' && lastSnapshot.balances[ticker]?.available).toBe(b.available.toFixed());
      }

      // the gate caught every rule violation: the venue rejected no order for rules (codes 30-37), and no 429
      for (let code = 30; code <= 37; code++) expect(sim.stats.orderRejectionsByCode.get(code) ?? 0, `venue code ${code}`).toBe(0);
      expect(sim.stats.tooManyRequests).toBe(0);
      expect(sim.exchange.openOrders(accountId)).toHaveLength(0);

      // the summary agrees with the journal
      const fills = summary.strategies.reduce((n, s) => n + s.fills, 0);
      expect(fills).toBe(venueDeals.length);
      expect(summary.openOrdersLeft).toBe(0);
      expect(printed).toMatch(/run summary/);
      expect(printed).not.toContain(account.apiSecret);
      expect(readFileSync(journalPath, 'utf8')).not.toContain(account.apiSecret);
      expect(readFileSync(join(dir, 'daemon.log'), 'utf8')).not.toContain(account.apiSecret);
    } finally {
      await sim.close();
    }
  }, 90_000);
});
