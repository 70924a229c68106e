/**
 * A real daemon (`runDaemon`, in this process) against its own simulated exchange, for the lying-venue integration tests
 * (issue 23): the test drives the sim's lies deterministically (`run.sim.lies`), while this helper samples what only the
 * venue's TRUE records can tell (in-process): the true mid of each market and the most live orders of the account,
 * every 25 ms. After `stop()`, `audit()` compares the journal with the venue as the chaos harness does.
 *
 * The sim is in-process and everything runs on its virtual clock (test/helpers/virtual-sim.ts): the daemon's timers,
 * the lies' episodes, the sampling. Time moves only in `sleep`, `waitFor` and `stop`, so a 7 s episode takes a
 * fraction of a second and every run replays the same way.
 *
 * The market stands still (no synthetic flow): a book of the flow account 100 USDT (BTC) / 10 USDT (ETH) either side of
 * 30000 / 2000, so a market maker quoting tighter is the touch, nothing fills unless the test hits a quote (`hit`), and
 * every run replays the same way.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import type { SchedulerAction } from 'rxjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { auditAccount, type AccountAudit } from '../../src/chaos/journal-audit.js';
import { MidHistory } from '../../src/chaos/malformed-check.js';
import { staleEpisodesOf } from '../../src/chaos/lying-report.js';
import { parseJournalText } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import { D, type Decimal } from '../../src/model/decimal.js';
import type { Order, Side } from '../../src/model/order.js';
import { DEFAULT_SIM_CONFIG } from '../../src/sim/sim-config.js';
import { VirtualSim } from './virtual-sim.js';

export interface LyingDaemonOptions {
  /** The `strategies:` entries, as YAML lines (indented by two spaces, e.g. `  - id: mm`). */
  readonly strategies: readonly string[];
  /** Further top-level YAML lines (e.g. `executor: ...`). */
  readonly extra?: readonly string[];
  /** Default `polling: { bookMs: 250, dealsMs: 300, openOrdersMs: 500, balancesMs: 1000 }`. */
  readonly polling?: string;
  /** Runs on the sim after its standing book is made, before the daemon starts (a lie told from the first poll). */
  readonly before?: (sim: VirtualSim) => void;
}

export interface LyingDaemon {
  readonly sim: VirtualSim;
  /** The sim account the daemon trades (its id in `sim.exchange`). */
  readonly accountId: string;
  readonly journalPath: string;
  /** True mids sampled from the sim's own book every 25 ms. */
  readonly mids: MidHistory;
  /** The daemon's journal so far. */
  records(): JournalRecord[];
  /** The daemon's output and log so far (for failure messages). */
  output(): string;
  /** The most orders of the account live on the venue at once in `market` since `from` (Unix ms; default the start). */
  maxLive(market: string, from?: number): number;
  /** Live orders of the account on the venue (the truth), of one market. */
  open(market: string): Order[];
  /**
   * Fills the daemon's resting order of `side` nearest the touch, wholly, with an IOC from the sim's flow account:
   * a deal of the daemon's made when the test wants it. Returns the order filled.
   */
  hit(market: string, side: Side): Order;
  /** Virtual time, Unix ms (what the sim, the lies and the journal's `t` say). */
  now(): number;
  /** Lets `ms` of virtual time pass, everything due in it run. */
  sleep(ms: number): Promise<void>;
  /** Lets virtual time pass (25 ms at a time, at most `timeoutMs`) until `cond` holds; fails with the daemon's output. */
  waitFor(what: string, cond: () => boolean, timeoutMs?: number): Promise<void>;
  /** Stops the daemon cleanly (SIGTERM's path: cancels, final deals and balances) and returns its summary. */
  stop(): Promise<RunSummary>;
  /** After `stop`: the chaos harness's journal-vs-venue audit of the account, with the true mids and the book episodes. */
  audit(): AccountAudit;
}

/** Call at the top level of a test file: each daemon gets a directory under it, removed (and its sim closed) in afterAll. */
export function lyingDaemons(prefix: string): (name: string, o: LyingDaemonOptions) => Promise<LyingDaemon> {
  // made with the first daemon: a file whose tests are all skipped leaves nothing behind
  let dir: string | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  return async (name, o) => {
    dir ??= mkdtempSync(join(tmpdir(), `${prefix}-`));
    const sim = new VirtualSim({ config: DEFAULT_SIM_CONFIG, flow: false });
    standingBook(sim);
    o.before?.(sim);
    const account = sim.accounts.find((a) => !a.partner)!;
    const accountId = sim.accountId(account.name);
    const initial = sim.exchange.tradeBalances(accountId);
    const journalPath = join(dir, `${name}.jsonl`);
    const logPath = join(dir, `${name}.log`);
    const configPath = join(dir, `${name}.yaml`);
    writeFileSync(
      configPath,
      [
        'venue:',
        '  kind: rest',
        `  baseUrl: ${sim.baseUrl}`,
        `  apiKey: ${account.apiKey}`,
        '  apiSecret: ${TEST_SECRET}',
        'strategies:',
        ...o.strategies,
        o.polling ?? 'polling: { bookMs: 250, dealsMs: 300, openOrdersMs: 500, balancesMs: 1000 }',
        `journal: { path: ${journalPath} }`,
        `log: { level: info, file: ${logPath} }`,
        'status: { everyMs: 5000 }',
        'shutdown: { cancelOpenOrders: true }',
        ...(o.extra ?? []),
      ].join('\n'),
    );
    const mids = new MidHistory();
    const live: Array<{ at: number; market: string; n: number }> = [];
    const sample = (): void => {
      const now = sim.scheduler.now();
      for (const market of sim.exchange.markets.keys()) {
        const top = sim.exchange.topOfBook(market);
        if (top.bid && top.ask) mids.add(market, now, top.bid.plus(top.ask).div(2));
        live.push({ at: now, market, n: sim.exchange.openOrders(accountId, { market, limit: 100_000 }).length });
      }
    };
    sample();
    const sampler = sim.scheduler.schedule(function (this: SchedulerAction<unknown>) {
      sample();
      this.schedule(undefined, 25);
    }, 25);
    let printed = '';
    const out = new PassThrough();
    out.on('data', (c: Buffer) => (printed += c.toString()));
    let stopNow: () => void = () => {};
    const stopped = new Promise<void>((r) => (stopNow = r));
    let armed = false;
    let ended = false;
    const running = runDaemon({
      configPath,
      env: { TEST_SECRET: account.apiSecret },
      out,
      until: stopped,
      // the daemon's first timer is its runtime starting to poll: until then it loads its modules (real I/O) and the
      // clock must stand still
      scheduler: sim.watchedScheduler(() => (armed = true)),
      clientOptions: sim.clientOptions(account.apiKey),
    }).finally(() => (ended = true));
    running.catch(() => {}); // surfaced by stop()
    while (!armed && !ended) await sim.settle();
    let summary: RunSummary | undefined;
    const records = (): JournalRecord[] => (existsSync(journalPath) ? parseJournalText(readFileSync(journalPath, 'utf8')).records : []);
    const output = (): string => `${printed}\n${existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-4000) : ''}`;
    cleanups.push(async () => {
      sampler.unsubscribe();
      stopNow();
      await sim.run(running).catch(() => {});
      sim.close();
    });
    const run: LyingDaemon = {
      sim,
      accountId,
      journalPath,
      mids,
      records,
      output,
      maxLive: (market, from = 0) => live.filter((s) => s.market === market && s.at >= from).reduce((m, s) => Math.max(m, s.n), 0),
      open: (market) => sim.exchange.openOrders(accountId, { market, limit: 100_000 }),
      hit(market, side) {
        const mine = run.open(market).filter((x) => x.side === side && x.kind === 'limit');
        const best = mine.sort((a, b) => (side === 'buy' ? b.price.cmp(a.price) : a.price.cmp(b.price)))[0];
        if (best === undefined) throw new Error(`no resting ${side} of the daemon in ${market} to hit`);
        const r = sim.exchange.placeLimit('market', { market, side: side === 'buy' ? 'sell' : 'buy', amount: best.left, price: best.price, ioc: true });
        if (!r.ok) throw new Error(`the hit on ${best.clientOrderId} was refused: ${r.message}`);
        return best;
      },
      now: () => sim.scheduler.now(),
      sleep: (ms) => sim.advance(ms),
      async waitFor(what, cond, timeoutMs = 15_000) {
        for (const start = sim.scheduler.now(); !cond(); await sim.advance(25)) {
          if (sim.scheduler.now() - start > timeoutMs)
            throw new Error(`no ${what} within ${timeoutMs} ms of virtual time; daemon output:\n${output().slice(-2000)}`);
        }
      },
      async stop() {
        sampler.unsubscribe();
        sample();
        stopNow();
        summary = await sim.run(running);
        return summary;
      },
      audit() {
        if (summary === undefined) throw new Error('audit() after stop()');
        const venue = {
          open: sim.exchange.openOrders(accountId, { limit: 100_000 }),
          finished: sim.exchange.finishedOrders(accountId),
          deals: sim.exchange.deals(accountId, { limit: 1_000_000 }),
          balances: sim.exchange.tradeBalances(accountId),
          initial,
        };
        return auditAccount(name, records(), venue, [], { mids, staleEpisodes: staleEpisodesOf(sim.lies), staleAfterMs: STALE_AFTER_MS });
      },
    };
    return run;
  };
}

/** Ten levels a side of the flow account, 100 (BTC) / 10 (ETH) USDT either side of the mid, one step apart. */
function standingBook(sim: VirtualSim): void {
  for (const [market, mid, gap, amount] of [
    ['BTC_USDT', 30_000, 100, '1'],
    ['ETH_USDT', 2_000, 10, '10'],
  ] as const) {
    for (let i = 0; i < 10; i++) {
      for (const side of ['buy', 'sell'] as const) {
        const price = side === 'buy' ? mid - gap - i * gap * 0.1 : mid + gap + i * gap * 0.1;
        const r = sim.exchange.placeLimit('market', { market, side, amount: D(amount), price: D(price) });
        if (!r.ok) throw new Error(`standing book: ${r.message}`);
      }
    }
  }
}

/** The daemon's default staleAfterMs for a 250 ms book poll (issue 23: 3 polling intervals, at least 5 s). */
export const STALE_AFTER_MS = 5_000;
/** Time allowed past staleAfterMs for the cancels to reach the venue. */
export const STALE_MARGIN_MS = 2_000;

/** The journal's submissions priced more than `band` from the true mid of their moment. */
export function outsideBand(run: LyingDaemon, band = 0.05): string[] {
  const out: string[] = [];
  for (const r of run.records()) {
    if (r.type !== 'submit') continue;
    const mid = run.mids.at(r.order.market, r.t);
    if (mid !== undefined && D(r.order.price).div(mid).minus(1).abs().gt(band))
      out.push(`${r.clientOrderId} ${r.order.side} @ ${r.order.price} (true mid ${mid.toFixed()})`);
  }
  return out;
}

/** Net base position of the journal's fills (each deal id once). */
export function journalPosition(records: readonly JournalRecord[]): Decimal {
  const seen = new Set<number>();
  let net = D(0);
  for (const r of records) {
    if (r.type !== 'fill' || seen.has(r.deal.id)) continue;
    seen.add(r.deal.id);
    net = r.deal.side === 'buy' ? net.plus(D(r.deal.amount)) : net.minus(D(r.deal.amount));
  }
  return net;
}

/**
 * The market maker of the lying tests: two levels a side 0.1 % and 0.2 % from the mid (the touch, inside the standing
 * book), no inventory skew (its quotes stay put), `risk` as given (maxOpenOrders 6 for its 4 quotes by default).
 */
export function marketMaker(risk = 'risk: { maxOpenOrders: 6, unlimited: true }', market = 'BTC_USDT', size = '0.002'): string[] {
  return [
    '  - id: mm',
    '    use: market-maker',
    `    market: ${market}`,
    `    params: { spread: 0.002, size: ${size}, levels: 2, levelSpacing: 0.001, inventorySkew: 0, maxInventory: 0.02, refreshThreshold: 0.001 }`,
    `    ${risk}`,
  ];
}
