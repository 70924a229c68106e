/**
 * A daemon run in this process against a sim of this process, with the ops surface on (loopback, a free port, a
 * token): the metrics, webhook and browser tests drive it over real HTTP and read the sim's and the journal's records.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runDaemon } from '../../src/app/daemon.js';
import { parseJournalText } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { startSim, type SimHandle } from '../../src/sim/start-sim.js';
import type { AccessEntry } from '../../src/sim/http/server.js';

const ORDER_PATHS = /\/order\/(new|stop_limit|bulk)$/;

export const OPS_TOKEN = 'ops-test-token-0123456789abcdef';

export interface OpsDaemon {
  readonly sim: SimHandle;
  readonly accountId: string;
  readonly apiSecret: string;
  /** `http://127.0.0.1:PORT` of the ops surface. */
  readonly url: string;
  readonly journalPath: string;
  readonly logPath: string;
  /** The sim's access log (wall-clock arrival): what the venue saw, whoever sent it. */
  readonly access: ReadonlyArray<{ readonly at: number; readonly entry: AccessEntry }>;
  /** The account's order-creating requests (orderNew, stop-limit, bulk) the sim answered, since `sinceMs`. */
  ordersSeenSince(sinceMs: number): number;
  records(): JournalRecord[];
  /** Stops the daemon (as a signal would) and the sim; resolves with the run summary. */
  stop(): Promise<RunSummary>;
  /** Resolves when the daemon ended by itself (e.g. the stop control). */
  readonly finished: Promise<RunSummary>;
}

export interface OpsDaemonOptions {
  /** Market-maker params (YAML flow map). */
  readonly params?: string;
  /** Risk limits (YAML flow map). */
  readonly risk?: string;
  /** Extra top-level config lines (e.g. `alerts:`). */
  readonly extra?: readonly string[];
  readonly speed?: number;
  /** Default true. */
  readonly http?: boolean;
}

export async function startOpsDaemon(o: OpsDaemonOptions = {}): Promise<OpsDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'ops-daemon-'));
  const access: { at: number; entry: AccessEntry }[] = [];
  const sim = await startSim({
    port: 0,
    config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: o.speed ?? 1 }),
    onRequest: (entry) => access.push({ at: Date.now(), entry }),
  });
  const account = sim.accounts.find((a) => !a.partner)!;
  const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
  const journalPath = join(dir, 'journal.jsonl');
  const logPath = join(dir, 'daemon.log');
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
      '  - id: mm',
      '    use: market-maker',
      '    market: BTC_USDT',
      `    params: ${o.params ?? '{ spread: 0.0002, size: 0.002, levels: 2, levelSpacing: 0.0001, inventorySkew: 0.0002, maxInventory: 0.02, refreshThreshold: 0.0001 }'}`,
      `    risk: ${o.risk ?? '{ maxOrderNotional: 1000, maxOpenOrders: 8, maxOrdersPerMinute: 600, unlimited: true }'}`,
      'polling: { bookMs: 300, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000 }',
      `journal: { path: ${journalPath} }`,
      `log: { level: info, file: ${logPath} }`,
      'status: { everyMs: 2000 }',
      'shutdown: { cancelOpenOrders: true }',
      ...(o.http === false ? [] : ['http: { listen: "127.0.0.1:0", token: "${TEST_TOKEN}" }']),
      ...(o.extra ?? []),
    ].join('\n'),
  );
  let stopNow: () => void = () => {};
  const until = new Promise<void>((r) => (stopNow = r));
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((r) => (listening = r));
  const out = new PassThrough();
  out.resume();
  const finished = runDaemon({ configPath, env: { TEST_SECRET: account.apiSecret, TEST_TOKEN: OPS_TOKEN }, out, until, onListening: listening });
  const cleanup = async (): Promise<void> => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const failedEarly = finished.then(
    () => undefined,
    async (error: unknown) => {
      await cleanup();
      throw error;
    },
  );
  const opsUrl = o.http === false ? '' : await Promise.race([url, failedEarly.then(() => '')]);
  // the server binds first and answers 503 "starting" until the runtime is wired
  if (opsUrl !== '') await waitFor('the ops routes', async () => (await fetch(`${opsUrl}/health`)).status === 200, 30_000, 50);
  return {
    sim,
    accountId,
    apiSecret: account.apiSecret,
    url: opsUrl,
    journalPath,
    logPath,
    access,
    ordersSeenSince: (sinceMs) => access.filter((a) => a.at >= sinceMs && a.entry.client === account.apiKey && ORDER_PATHS.test(a.entry.path)).length,
    records: () => (existsSync(journalPath) ? parseJournalText(readFileSync(journalPath, 'utf8')).records : []),
    finished,
    async stop() {
      stopNow();
      try {
        return await finished;
      } finally {
        await cleanup();
      }
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` until it holds; fails after `timeoutMs` naming `what`. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  for (const start = Date.now(); !(await cond()); await sleep(everyMs)) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

/** A POST to the ops surface, with the token unless `token: null`. */
export async function opsPost(
  base: string,
  path: string,
  body: unknown = {},
  token: string | null = OPS_TOKEN,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
