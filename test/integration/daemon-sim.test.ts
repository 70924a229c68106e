import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import { runDaemon, type DaemonOptions } from '../../src/app/daemon.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import { parseJournalText } from '../../src/engine/journal.js';
import type { JournalDeal } from '../../src/engine/journal-records.js';
import type { Balances } from '../../src/model/balance.js';
import type { SimExchange } from '../../src/sim/exchange.js';
import type { SimStats } from '../../src/sim/http/sim-stats.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import type { SimAccountInfo } from '../../src/sim/start-sim.js';
import { startSim } from '../../src/sim/start-sim.js';
import { journalAt, until } from '../helpers/daemon-child.js';
import { VirtualSim } from '../helpers/virtual-sim.js';

const root = mkdtempSync(join(tmpdir(), 'daemon-sim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The sim's market runs SPEED× faster: RUN_MS of the daemon is several simulated minutes. */
const SPEED = 10;

/** `bot run`'s config for two market makers on a rest venue at `baseUrl`, journal and log in `dir`. */
function writeConfig(dir: string, baseUrl: string, account: SimAccountInfo): { configPath: string; journalPath: string; logPath: string } {
  const journalPath = join(dir, 'journal.jsonl');
  const configPath = join(dir, 'daemon.yaml');
  const logPath = join(dir, 'daemon.log');
  writeFileSync(
    configPath,
    [
      'venue:',
      '  kind: rest',
      `  baseUrl: ${baseUrl}`,
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
      `log: { level: info, file: ${logPath} }`,
      'status: { everyMs: 2000 }',
      'shutdown: { cancelOpenOrders: true }',
    ].join('\n'),
  );
  return { configPath, journalPath, logPath };
}

/**
 * The daemon's promises about a finished run, checked against the venue: every deal journalled with the venue's
 * figures, balances equal to initial + fills − fees to the last decimal, nothing locked or open after the stop,
 * no order the rules reject, no 429, the summary agreeing, no secret in the output, the journal or the log.
 * Returns the venue's deal count.
 */
function checkRun(o: {
  exchange: SimExchange;
  stats: SimStats;
  accountId: string;
  initial: Balances;
  files: { journalPath: string; logPath: string };
  summary: RunSummary;
  printed: string;
  secret: string;
}): number {
  const records = parseJournalText(readFileSync(o.files.journalPath, 'utf8')).records;
  const journalDeals = new Map<number, JournalDeal>();
  for (const r of records) if (r.type === 'fill') journalDeals.set(r.deal.id, r.deal);
  const venueDeals = o.exchange.deals(o.accountId, { limit: 100_000 });
  // every deal of the venue's ledger is in the journal, with the same figures
  for (const d of venueDeals) {
    const j = journalDeals.get(d.id);
    expect(j, `deal ${d.id}`).toBeDefined();
    expect([j!.amount, j!.price, j!.fee, j!.clientOrderId]).toEqual([d.amount.toFixed(), d.price.toFixed(), d.fee.toFixed(), d.clientOrderId]);
  }
  expect(journalDeals.size).toBe(venueDeals.length);

  // balances: initial + Σ fills − fees (from the journal) = the venue's, exactly; and the journal's last snapshot agrees
  const expected = new Map<string, Decimal>(Object.entries(o.initial).map(([t, b]) => [t, b.available.plus(b.freeze)]));
  const add = (t: string, v: Decimal) => expected.set(t, (expected.get(t) ?? ZERO).plus(v));
  for (const d of journalDeals.values()) {
    const [stock, money] = d.market.split('_') as [string, string];
    const sign = d.side === 'buy' ? 1 : -1;
    add(stock, D(d.amount).times(sign));
    add(money, D(d.deal).times(-sign).minus(D(d.fee)));
  }
  const final = o.exchange.tradeBalances(o.accountId);
  const lastSnapshot = records.filter((r) => r.type === 'balance').at(-1);
  for (const [ticker, b] of Object.entries(final)) {
    expect(b.available.plus(b.freeze).toFixed(), ticker).toBe(expected.get(ticker)?.toFixed());
    expect(b.freeze.toFixed(), `${ticker} locked after cancel-on-stop`).toBe('0');
    expect(lastSnapshot?.type === 'balance' && lastSnapshot.balances[ticker]?.available).toBe(b.available.toFixed());
  }

  // the gate caught every rule violation: the venue rejected no order for rules (codes 30-37), and no 429
  for (let code = 30; code <= 37; code++) expect(o.stats.orderRejectionsByCode.get(code) ?? 0, `venue code ${code}`).toBe(0);
  expect(o.stats.tooManyRequests).toBe(0);
  expect(o.exchange.openOrders(o.accountId)).toHaveLength(0);

  // the summary agrees with the journal
  const fills = o.summary.strategies.reduce((n, s) => n + s.fills, 0);
  expect(fills).toBe(venueDeals.length);
  expect(o.summary.openOrdersLeft).toBe(0);
  expect(o.printed).toMatch(/run summary/);
  expect(o.printed).not.toContain(o.secret);
  expect(readFileSync(o.files.journalPath, 'utf8')).not.toContain(o.secret);
  expect(readFileSync(o.files.logPath, 'utf8')).not.toContain(o.secret);
  expect(records.filter((r) => r.type === 'submit').length).toBeGreaterThan(0);
  return venueDeals.length;
}

function capture(): { out: PassThrough; printed: () => string } {
  const out = new PassThrough();
  let printed = '';
  out.on('data', (c: Buffer) => (printed += c.toString()));
  return { out, printed: () => printed };
}

describe('daemon against the simulated exchange', () => {
  it('several simulated minutes on virtual time: journals every deal, agrees with the venue on balances to the last decimal, sends nothing the rules reject, never hits 429', async () => {
    // bot run's whole path (config file, venue client, strategies, journal file, log file, status line, stop) with the
    // sim in-process and the daemon's scheduler the sim's virtual clock (test/helpers/virtual-sim.ts)
    const RUN_MS = 24_000;
    const sim = new VirtualSim({ config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: SPEED }) });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.accountId(account.name);
      const initial = sim.exchange.tradeBalances(accountId);
      const dir = mkdtempSync(join(root, 'virtual-'));
      const files = writeConfig(dir, sim.baseUrl, account);
      const { out, printed } = capture();
      let armed = false;
      let stop: () => void = () => {};
      const options: DaemonOptions = {
        configPath: files.configPath,
        env: { TEST_SECRET: account.apiSecret },
        out,
        until: new Promise<void>((resolve) => (stop = resolve)),
        // the daemon's first timer is its runtime starting to poll: until then it reads its config and loads its
        // strategy modules (real I/O), and the market must not move under it
        scheduler: sim.watchedScheduler(() => (armed = true)),
        clientOptions: sim.clientOptions(account.apiKey),
      };
      let ended = false;
      const daemon = runDaemon(options).finally(() => (ended = true));
      while (!armed && !ended) await sim.settle();
      sim.scheduler.schedule(() => stop(), RUN_MS);
      const summary = await sim.run(daemon);
      expect(sim.scheduler.now() - sim.startMs).toBeGreaterThanOrEqual(RUN_MS);

      const deals = checkRun({ exchange: sim.exchange, stats: sim.stats, accountId, initial, files, summary, printed: printed(), secret: account.apiSecret });
      expect(deals).toBeGreaterThan(20);
    } finally {
      sim.close();
    }
  });

  it('smoke test over loopback HTTP on the wall clock: the same checks after a few seconds of trading', async () => {
    const sim = await startSim({ port: 0, config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: SPEED }) });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
      const initial = sim.exchange.tradeBalances(accountId);
      const dir = mkdtempSync(join(root, 'loopback-'));
      const files = writeConfig(dir, sim.baseUrl, account);
      const { out, printed } = capture();
      // trading for ten book polls after its first order (start-up takes longer on a loaded machine)
      const books = () => sim.stats.arrivals.filter((a) => a.endpoint === 'orderbook').length;
      const trading = until('the first order in the journal', () => journalAt(files.journalPath).some((r) => r.type === 'submit'), 30_000, printed).then(() => {
        const from = books();
        return until('ten more book polls', () => books() >= from + 10, 30_000, printed);
      });
      const summary = await runDaemon({ configPath: files.configPath, env: { TEST_SECRET: account.apiSecret }, out, until: trading });
      checkRun({ exchange: sim.exchange, stats: sim.stats, accountId, initial, files, summary, printed: printed(), secret: account.apiSecret });
    } finally {
      await sim.close();
    }
  }, 60_000);
});
