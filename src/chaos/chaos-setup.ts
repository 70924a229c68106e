import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, type SimConfig } from '../sim/sim-config.js';
import { DEFAULT_MAX_DEVIATION } from './trust-audit.js';

/**
 * What a chaos run trades: two client accounts of the simulated exchange, each driven by its own daemon
 * (`bot run`, a child process) with a market maker on a tight refresh on one market and a grid on the other.
 * The accounts' API secrets are fresh random strings the harness knows, so it can scan every byte the run
 * wrote for them; the daemons get them only through the environment (`${CHAOS_SECRET}` in the config).
 */
export interface ChaosAccount {
  readonly name: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** The daemon config (YAML) and its journal, log and output files, in the run directory. */
  readonly configPath: string;
  readonly journalPath: string;
  readonly logPath: string;
  readonly outputPath: string;
  /** Strategy ids in that config, and which of them are grids (one order per level at every moment). */
  readonly strategies: readonly string[];
  readonly grids: readonly string[];
  /** Strategy id → its price band (`risk.maxDeviation`); the configs leave it at the daemon's default. */
  readonly maxDeviation: Readonly<Record<string, number>>;
  /** The daemon's `polling.staleAfterMs`, written into its config. */
  readonly staleAfterMs: number;
}

export interface ChaosSetup {
  readonly simConfig: SimConfig;
  readonly accounts: readonly ChaosAccount[];
}

export interface ChaosSetupOptions {
  readonly dir: string;
  /** The sim's market speed (the synthetic flow runs this many times faster than real time). */
  readonly speed: number;
  readonly clientTimeoutMs: number;
  /** Base URL of the sim; written into the daemon configs. */
  readonly baseUrl: () => string;
}

const secret = (): string => `chaos-${randomBytes(18).toString('base64url')}`;

/**
 * Written into every daemon config (it is the default for a 250 ms book poll: 3 intervals, at least 5 s), so the
 * stale-fills column measures against what the daemon was told, whatever the default becomes.
 */
export const CHAOS_STALE_AFTER_MS = 5_000;

/** The sim config: the built-in markets and flow, two client accounts with known keys, history kept for the audit. */
export function chaosSimConfig(speed: number, keys: ReadonlyArray<{ name: string; apiKey: string; apiSecret: string }>): SimConfig {
  const base = DEFAULT_SIM_CONFIG_INPUT;
  return parseSimConfig({
    ...base,
    accounts: base.accounts.map((a) => {
      const k = keys.find((x) => x.name === a.name);
      return k ? { ...a, apiKey: k.apiKey, apiSecret: k.apiSecret } : a;
    }),
    // the audit compares every order and deal of the run: keep them all
    history: { maxFinishedOrders: 10_000_000, maxDeals: 10_000_000 },
    speed,
  });
}

export function accountKeys(): Array<{ name: string; apiKey: string; apiSecret: string }> {
  return ['alice', 'bob'].map((name) => ({ name, apiKey: `chaos-key-${name}-${randomBytes(6).toString('hex')}`, apiSecret: secret() }));
}

/** Writes both daemon configs; the sim must be listening (its URL goes into them). */
export function writeDaemonConfigs(o: ChaosSetupOptions, keys: ReadonlyArray<{ name: string; apiKey: string; apiSecret: string }>): ChaosAccount[] {
  const plans = [
    {
      name: 'bob',
      mm: { id: 'mm-btc', market: 'BTC_USDT', size: '0.002', maxInventory: '0.02' },
      grid: { id: 'grid-eth', market: 'ETH_USDT', lower: '1960', upper: '2040', levels: 21, amount: '0.01' },
    },
    {
      name: 'alice',
      mm: { id: 'mm-eth', market: 'ETH_USDT', size: '0.03', maxInventory: '0.3' },
      grid: { id: 'grid-btc', market: 'BTC_USDT', lower: '29400', upper: '30600', levels: 25, amount: '0.001' },
    },
  ];
  return plans.map((p) => {
    const k = keys.find((x) => x.name === p.name)!;
    const configPath = join(o.dir, `daemon-${p.name}.yaml`);
    const journalPath = join(o.dir, `journal-${p.name}.jsonl`);
    const logPath = join(o.dir, `daemon-${p.name}.log`);
    const outputPath = join(o.dir, `daemon-${p.name}.out`);
    const yaml = [
      `# chaos run: account ${p.name} (written by the harness)`,
      'venue:',
      '  kind: rest',
      `  baseUrl: ${o.baseUrl()}`,
      '  apiKey: ${CHAOS_KEY}',
      '  apiSecret: ${CHAOS_SECRET}',
      `  timeoutMs: ${o.clientTimeoutMs}`,
      'strategies:',
      `  - id: ${p.mm.id}`,
      '    use: market-maker',
      `    market: ${p.mm.market}`,
      `    params: { spread: 0.0004, size: ${p.mm.size}, levels: 3, levelSpacing: 0.0002, inventorySkew: 0.0002, maxInventory: ${p.mm.maxInventory}, refreshThreshold: 0.00002 }`,
      // unlimited: the harness trades the sim's money and must not halt on a loss limit mid-run (issue 24's rest-venue rule)
      '    risk: { maxOpenOrders: 12, maxOrdersPerMinute: 1200, unlimited: true }',
      `  - id: ${p.grid.id}`,
      '    use: grid',
      `    market: ${p.grid.market}`,
      `    params: { lower: ${p.grid.lower}, upper: ${p.grid.upper}, levels: ${p.grid.levels}, amount: ${p.grid.amount}, retryAfterMs: 3000, cancelGraceMs: 2000 }`,
      `    risk: { maxOpenOrders: ${p.grid.levels + 1}, unlimited: true }`,
      `polling: { bookMs: 250, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000, staleAfterMs: ${CHAOS_STALE_AFTER_MS} }`,
      `journal: { path: ${journalPath} }`,
      `log: { level: info, file: ${logPath} }`,
      'status: { everyMs: 5000 }',
      'shutdown: { cancelOpenOrders: true }',
      '',
    ].join('\n');
    writeFileSync(configPath, yaml);
    return {
      name: p.name,
      apiKey: k.apiKey,
      apiSecret: k.apiSecret,
      configPath,
      journalPath,
      logPath,
      outputPath,
      strategies: [p.mm.id, p.grid.id],
      grids: [p.grid.id],
      maxDeviation: { [p.mm.id]: DEFAULT_MAX_DEVIATION, [p.grid.id]: DEFAULT_MAX_DEVIATION },
      staleAfterMs: CHAOS_STALE_AFTER_MS,
    };
  });
}
