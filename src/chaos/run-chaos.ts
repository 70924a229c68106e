import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Balances } from '../model/balance.js';
import { parseJournalText } from '../engine/journal.js';
import type { LieConfig } from '../sim/http/lie-config.js';
import { startSim, type SimHandle } from '../sim/start-sim.js';
import { accountKeys, chaosSimConfig, writeDaemonConfigs, type ChaosAccount } from './chaos-setup.js';
import { chaosPassed, formatSummaryLine, summarize, type ChaosSummary } from './chaos-summary.js';
import { DaemonFleet } from './daemon-fleet.js';
import { REPO_ROOT } from './daemon-process.js';
import { chaosFaults, lyingFaults, malformedFaults } from './fault-plan.js';
import { auditAccount, type AccountAudit } from './journal-audit.js';
import { JournalTail } from './journal-tail.js';
import { planKills } from './kill-plan.js';
import { LiveWatch } from './live-watch.js';
import { lyingReport, staleEpisodesOf } from './lying-report.js';
import { MidHistory, garbageInJournal, ordersOffMarket, typedErrorCounts } from './malformed-check.js';
import { scanForSecrets } from './secret-scan.js';

export interface ChaosOptions {
  /**
   * `faults`: faults at scale and SIGKILL loops until `orders`; `malformed`: garbage answers for `durationMs`;
   * `lying`: well-formed but wrong answers (hidden orders, duplicate and corrupt deals, contradicting answers, absurd,
   * crossed, frozen and absent books) for `durationMs`.
   */
  readonly mode: 'faults' | 'malformed' | 'lying';
  readonly orders: number;
  readonly kills: number;
  readonly seed: number;
  /**
   * Malformed and lying modes: how long to run. Faults mode: a cap on the trading phase (the audit runs either way).
   * Counted from when every daemon has sent its first order (see TRADING_WAIT_MS).
   */
  readonly durationMs?: number;
  /** Run directory: configs, journals, logs, outputs, report.json. */
  readonly out: string;
  /** Sim market speed. Default 10. */
  readonly speed?: number;
  /** The daemons' venue.timeoutMs. Default 2500. */
  readonly clientTimeoutMs?: number;
  /** Lying mode: the lies to tell instead of the plan's (lyingFaults), e.g. denser ones for a short test run. */
  readonly lies?: LieConfig;
  /** Fault-free time before the final stop, so reconciliation finishes. Default 6000. */
  readonly settleMs?: number;
  readonly progress?: (line: string) => void;
}

export interface ChaosResult {
  readonly summary: ChaosSummary;
  readonly line: string;
  readonly passed: boolean;
  readonly audits: readonly AccountAudit[];
  readonly wallMs: number;
  readonly reportPath: string;
  readonly notes: readonly string[];
  /** Malformed mode: one line per account and one for the garbage sent (also in report.json). */
  readonly malformedLines?: readonly string[];
  /** Lying mode: one line for the lies told and one per account (also in report.json). */
  readonly lyingLines?: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** No new order for this long ends a faults run as failed. */
const STALL_MS = 180_000;
/**
 * A run's duration counts from when every daemon trades (has sent an order), so that it is that long of faults or lies
 * met while trading however long the start-up took: on a loaded machine two daemons' start-up, journal replay and
 * first trusted books took most of an 8 s test run, which then met no garbage at all. A daemon that has not traded
 * this long after the start starts the clock anyway (the report then shows what it did).
 */
const TRADING_WAIT_MS = 60_000;

/** Runs one chaos experiment end to end (see README, "Chaos runs"). Never leaves a process behind. */
export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const began = Date.now();
  const say = o.progress ?? (() => {});
  const clientTimeoutMs = o.clientTimeoutMs ?? 2500;
  mkdirSync(o.out, { recursive: true });
  const keys = accountKeys();
  const faults =
    o.mode === 'faults'
      ? chaosFaults({ seed: o.seed, clientTimeoutMs })
      : o.mode === 'lying'
        ? { ...lyingFaults({ seed: o.seed }), ...(o.lies ? { lies: o.lies } : {}) }
        : malformedFaults({ seed: o.seed, clientTimeoutMs });
  const access = createWriteStream(join(o.out, 'sim-access.log'), { flags: 'a' });
  const sim = await startSim({
    port: 0,
    host: '127.0.0.1',
    config: chaosSimConfig(o.speed ?? 10, keys),
    faults,
    onRequest: (e) => access.write(`${e.method} ${e.path} ${e.endpoint} ${e.client} ${e.status} ${e.venueCode ?? ''} ${e.ms}\n`),
  });
  let fleet: DaemonFleet | undefined;
  const aborts: Array<(signal: NodeJS.Signals) => void> = [];
  try {
    const accounts = writeDaemonConfigs({ dir: o.out, speed: o.speed ?? 10, clientTimeoutMs, baseUrl: () => sim.baseUrl }, keys);
    const ids = accounts.map((a) => sim.exchange.accountByKey(a.apiKey)!.id);
    const initial = ids.map((id) => sim.exchange.tradeBalances(id));
    const notes: string[] = [];
    const secrets = [...accounts.map((a) => ({ label: `API secret of ${a.name}`, value: a.apiSecret })), ...(await createCode(sim, accounts[0]!, o.out))];
    if (!secrets.some((x) => x.label === 'created code')) notes.push('bot code create failed: no created code to scan for (see code-create.err)');

    fleet = new DaemonFleet(accounts);
    const abort = (signal: NodeJS.Signals): void => {
      // Ctrl-C on the harness: its daemons must not outlive it
      for (const p of fleet?.processes ?? []) p.child.kill('SIGKILL');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', abort);
    process.once('SIGTERM', abort);
    aborts.push(abort);
    fleet.start();
    const tails = accounts.map((a) => new JournalTail(a.journalPath));
    const watches = accounts.map((a) => new LiveWatch(a.grids));
    const mids = new MidHistory();
    const kills = o.mode === 'faults' ? planKills(o.seed, o.kills, o.orders, accounts.length) : [];
    let next = 0;
    let lastReport = Date.now();
    let deadline = Number.POSITIVE_INFINITY;
    const submits = (): number => tails.reduce((n, t) => n + t.submits, 0);
    // a run that stops making orders fails instead of hanging (a stuck daemon is a finding too)
    let progress = { orders: 0, at: Date.now() };
    say(`chaos: ${o.mode} mode, seed ${o.seed}, sim ${sim.baseUrl}, run dir ${o.out}`);

    // ---- trading phase: faults on, SIGKILLs at the planned moments
    for (;;) {
      ids.forEach((id, i) => watches[i]!.sample(sim.exchange.openOrders(id, { limit: 1_000_000 })));
      for (const t of tails) t.poll();
      if (o.durationMs !== undefined && deadline === Number.POSITIVE_INFINITY && (tails.every((t) => t.submits > 0) || Date.now() - began >= TRADING_WAIT_MS))
        deadline = Date.now() + o.durationMs;
      for (const m of ['BTC_USDT', 'ETH_USDT']) {
        const top = sim.exchange.topOfBook(m);
        if (top.bid && top.ask) mids.add(m, Date.now(), top.bid.plus(top.ask).div(2));
      }
      const n = submits();
      const k = kills[next];
      if (k !== undefined && (k.earlyAfterMs !== undefined ? fleet.age(k.target) >= k.earlyAfterMs : n >= k.atOrders)) {
        await fleet.killAndRestart(k.target, k.downMs);
        next += 1;
        say(
          `chaos: kill ${next}/${kills.length} (${accounts[k.target]!.name}${k.earlyAfterMs !== undefined ? `, ${k.earlyAfterMs} ms after its restart` : ''}) at ${n} orders`,
        );
      }
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        say(`chaos: ${n} orders, ${fleet.restarts} restarts, ${fleet.crashes.length} crashes, ${Math.round((Date.now() - began) / 1000)} s`);
      }
      if (n > progress.orders) progress = { orders: n, at: Date.now() };
      else if (o.mode === 'faults' && Date.now() - progress.at > STALL_MS) {
        notes.push(`no new order for ${STALL_MS / 1000} s at ${n} orders: stopped`);
        break;
      }
      const done = o.mode === 'faults' ? n >= o.orders && next >= kills.length : false;
      if (done || Date.now() >= deadline) break;
      await sleep(200);
    }
    const aliveAtEnd = fleet.allRunning() && fleet.crashes.length === 0;

    // ---- faults and lies off; let reconciliation finish; clean stop
    sim.faults.setEnabled(false);
    sim.lies.setEnabled(false);
    say(`chaos: ${o.mode === 'lying' ? 'lies' : 'faults'} off, letting the daemons reconcile`);
    await sleep(o.settleMs ?? 6000);
    ids.forEach((id, i) => watches[i]!.sample(sim.exchange.openOrders(id, { limit: 1_000_000 })));
    const stops = await fleet.stopAll(60_000);
    notes.push(...fleet.crashes);
    stops.forEach((s, i) => {
      // what it was doing when it was stopped (a stop that hangs is rare: the next one must be diagnosable from the note)
      const a = accounts[i]!;
      if (s !== 0)
        notes.push(
          `daemon ${a.name} did not stop cleanly (exit ${s}); its log ended with:\n${lastLines(a.logPath, 12)}\nand its output with:\n${lastLines(a.outputPath, 6)}`,
        );
    });

    // ---- audit: journal vs the venue's TRUE records (in-process), account by account
    const staleEpisodes = staleEpisodesOf(sim.lies);
    const audits = accounts.map((a, i) => {
      const id = ids[i]!;
      const records = existsSync(a.journalPath) ? parseJournalText(readFileSync(a.journalPath, 'utf8')).records : [];
      return auditAccount(
        a.name,
        records,
        {
          open: sim.exchange.openOrders(id, { limit: 1_000_000 }),
          finished: sim.exchange.finishedOrders(id),
          deals: sim.exchange.deals(id, { limit: 10_000_000 }),
          balances: sim.exchange.tradeBalances(id),
          initial: initial[i] as Balances,
        },
        watches[i]!.gridDuplicates,
        { mids, maxDeviation: a.maxDeviation, staleEpisodes, staleAfterMs: a.staleAfterMs },
      );
    });

    const malformed = o.mode === 'malformed' ? malformedReport(sim, accounts, ids, mids, aliveAtEnd) : undefined;
    if (malformed) notes.push(...malformed.problems);
    const lying = o.mode === 'lying' ? lyingReport(sim.lies, accounts, aliveAtEnd) : undefined;
    if (lying) notes.push(...lying.problems);
    const injected429 = [...sim.stats.faults].filter(([k]) => k.endsWith(':429')).reduce((n, [, v]) => n + v, 0);
    let ruleRejects = 0;
    for (let code = 30; code <= 37; code++) ruleRejects += sim.stats.orderRejectionsByCode.get(code) ?? 0;
    const draft = { tooManyRequests: sim.stats.tooManyRequests, ruleRejects, restarts: fleet.restarts };
    const report = (secretHits: number, line: string) =>
      JSON.stringify(
        {
          mode: o.mode,
          seed: o.seed,
          line,
          wallMs: Date.now() - began,
          injected429,
          faults: Object.fromEntries([...sim.stats.faults].sort()),
          byStatus: Object.fromEntries(sim.stats.byStatus),
          notes,
          audits,
          ...(malformed ? { malformed: malformed.report } : {}),
          ...(lying ? { lying: lying.report } : {}),
        },
        null,
        2,
      );
    // the report is scanned before it is written, together with everything the run wrote
    access.end();
    await new Promise<void>((r) => access.once('close', () => r()));
    const provisional = report(0, formatSummaryLine(summarize(audits, { ...draft, secretHits: 0 })));
    const scan = scanForSecrets(o.out, secrets, [{ name: 'report.json', text: provisional }]);
    for (const h of scan.hits) notes.push(`secret (${h.secret}) found in ${h.file} at byte ${h.offset}`);
    const summary = summarize(audits, { ...draft, secretHits: scan.hits.length });
    const line = formatSummaryLine(summary);
    const reportPath = join(o.out, 'report.json');
    writeFileSync(reportPath, report(scan.hits.length, line));
    const passed = chaosPassed(summary) && notes.length === 0;
    say(`chaos: scanned ${scan.files} files, ${scan.bytes} bytes for ${secrets.length} secrets`);
    return {
      summary,
      line,
      passed,
      audits,
      wallMs: Date.now() - began,
      reportPath,
      notes,
      ...(malformed ? { malformedLines: malformed.lines } : {}),
      ...(lying ? { lyingLines: lying.lines } : {}),
    };
  } finally {
    for (const a of aborts) {
      process.off('SIGINT', a);
      process.off('SIGTERM', a);
    }
    await fleet?.killAll();
    access.end();
    await sim.close();
  }
}

/**
 * A created code and its passphrase, for the secret scan: made through `bot code create` as a user would
 * (its stdout, where the code is printed once by design, is read here and not kept; its stderr is kept).
 */
async function createCode(sim: SimHandle, account: ChaosAccount, dir: string): Promise<Array<{ label: string; value: string }>> {
  const passphrase = `pp${randomBytes(8).toString('hex')}`;
  // asynchronously: the sim answering it lives in this process
  const r = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['bin/bot.js', 'code', 'create', 'USDT', '5', '--passphrase', passphrase, '--json', '--base-url', sim.baseUrl],
      { cwd: REPO_ROOT, env: { ...process.env, BOT_API_KEY: account.apiKey, BOT_API_SECRET: account.apiSecret }, encoding: 'utf8' },
      (_error, stdout, stderr) => resolve({ stdout, stderr }),
    ),
  );
  writeFileSync(join(dir, 'code-create.err'), r.stderr);
  const code = /"code"\s*:\s*"([^"]+)"/.exec(r.stdout)?.[1];
  return [{ label: 'code passphrase', value: passphrase }, ...(code ? [{ label: 'created code', value: code }] : [])];
}

function malformedReport(sim: SimHandle, accounts: readonly ChaosAccount[], ids: readonly string[], mids: MidHistory, alive: boolean) {
  const problems: string[] = [];
  if (!alive) problems.push('a daemon did not survive the malformed venue');
  const garbage = Object.fromEntries([...sim.stats.faults].filter(([k]) => k.includes(':garbage:')).sort());
  const perAccount = accounts.map((a, i) => {
    const orders = [...sim.exchange.openOrders(ids[i]!, { limit: 1_000_000 }), ...sim.exchange.finishedOrders(ids[i]!)];
    // grids span ±2 % around the start; quotes sit well inside: 3 % is off the market
    const off = ordersOffMarket(orders, mids, 0.03);
    const journal = existsSync(a.journalPath) ? readFileSync(a.journalPath, 'utf8') : '';
    const bad = garbageInJournal(journal);
    const log = existsSync(a.logPath) ? readFileSync(a.logPath, 'utf8') : '';
    for (const x of off) problems.push(`${a.name}: order off the market (garbage-driven?): ${x}`);
    if (bad > 0) problems.push(`${a.name}: ${bad} journal lines carry garbage values`);
    const records = parseJournalText(journal).records;
    return {
      account: a.name,
      ordersSent: records.filter((r) => r.type === 'submit').length,
      cancelsSent: records.filter((r) => r.type === 'cancel').length,
      ordersOffMarket: off.length,
      typedErrors: Object.fromEntries([...typedErrorCounts(log)].sort()),
    };
  });
  const byKind = new Map<string, number>();
  for (const [k, v] of Object.entries(garbage)) byKind.set(k.split(':').at(-1)!, (byKind.get(k.split(':').at(-1)!) ?? 0) + v);
  const lines = [
    `garbage answers ${[...byKind.values()].reduce((a, b) => a + b, 0)} (${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ')}); daemons ${alive ? 'still running' : 'NOT running'}`,
    ...perAccount.map(
      (a) =>
        `${a.account}: orders sent ${a.ordersSent}, cancels sent ${a.cancelsSent}, off the market ${a.ordersOffMarket}, typed errors ${
          Object.entries(a.typedErrors)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none'
        }`,
    ),
  ];
  return { problems, lines, report: { garbage, daemonsAlive: alive, accounts: perAccount } };
}

/** The last `n` lines of a text file, indented ('(none)' when it is missing or empty). */
function lastLines(path: string, n: number): string {
  const text = existsSync(path) ? readFileSync(path, 'utf8').trimEnd() : '';
  return text === ''
    ? '  (none)'
    : text
        .split('\n')
        .slice(-n)
        .map((l) => `  ${l}`)
        .join('\n');
}
