import { existsSync, readFileSync } from 'node:fs';
import type { Balances } from '../model/balance.js';
import { D, type Decimal } from '../model/decimal.js';
import { BotError, ConfigError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import { scanJournal } from '../engine/journal-scan.js';
import { DaemonConfigSchema, type DaemonConfig } from '../settings/daemon-config.js';
import { checkDaemonFiles, type DaemonFiles } from '../settings/daemon-files.js';
import { loadYamlConfig } from '../settings/load-yaml.js';
import { createLogger } from '../settings/logger.js';
import type { SimHandle } from '../sim/start-sim.js';
import { loadStrategy, parseParams } from '../strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { notReached } from '../venue/errors.js';
import type { RestClient } from '../venue/rest-client.js';
import { openVenue } from './open-venue.js';
import { fail, ok, strategyLimitChecks, warn, type PreflightCheck, type StrategyUnderCheck } from './preflight-limits.js';
import { credentialsError } from './venue-credentials.js';

export type { PreflightCheck } from './preflight-limits.js';

export interface PreflightOptions {
  readonly configPath: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Relative paths of the config resolve against this. Default cwd. */
  readonly cwd?: string;
  /** Told each check as it is made (the CLI prints it at once). */
  readonly onCheck?: (check: PreflightCheck) => void;
}

export interface PreflightReport {
  readonly checks: readonly PreflightCheck[];
  /** ok and warn lines. */
  readonly passed: number;
  /** 0 all passed; 1 a check failed; 2 the config does not load; 3 the venue could not be reached. */
  readonly exitCode: 0 | 1 | 2 | 3;
}

/**
 * `bot check <config.yaml>`: what `bot run` would meet, checked before money is at stake, one line per check. The
 * config loads (schema, file paths, strategies and their params); the journal has no damaged line; one signed call
 * (the trade balance) works; the strategies' markets exist and trade; each strategy's limits are there and sane
 * against the market's rules and the balances (preflight-limits.ts); a REST venue has a dead-man timer (warn); the
 * kill-switch endpoint answers. A refused key throws the one-line credentials ConfigError, as `bot run` does.
 * Nothing is sent that could trade: reads only (an embedded sim is started and closed).
 */
export async function runPreflight(o: PreflightOptions): Promise<PreflightReport> {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const checks: PreflightCheck[] = [];
  const add = (c: PreflightCheck): void => {
    checks.push(c);
    o.onCheck?.(c);
  };
  const report = (): PreflightReport => {
    const passed = checks.filter((c) => c.status !== 'FAIL').length;
    const exitCode = checks.some((c) => c.status === 'FAIL' && c.unreachable === true) ? 3 : passed < checks.length ? 1 : 0;
    return { checks, passed, exitCode };
  };

  let cfg: DaemonConfig;
  let files: DaemonFiles;
  const strategies: StrategyUnderCheck[] = [];
  try {
    cfg = loadYamlConfig(o.configPath, DaemonConfigSchema, env);
    files = checkDaemonFiles(cfg, o.configPath, cwd, { createFolders: false });
    for (const [i, s] of cfg.strategies.entries()) {
      const def = await loadStrategy(
        builtinStrategies,
        s.use,
        { configFile: o.configPath, cwd, warn: (m) => add(warn(m)) },
        `${o.configPath}: strategies[${i}].use`,
      );
      const params = parseParams(def, s.params, { file: o.configPath, path: ['strategies', i, 'params'] }) as Record<string, unknown>;
      strategies.push({ id: s.id, use: s.use, market: s.market, params, risk: s.risk });
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    add(fail(`config ${o.configPath} does not load: ${error.message.replace(/:\n\s*/g, ': ').replace(/\n\s*/g, '; ')}`));
    return { ...report(), exitCode: 2 };
  }
  const n = strategies.length;
  add(ok(`config ${o.configPath} loads (${n} ${n === 1 ? 'strategy' : 'strategies'}, venue ${cfg.venue.kind})`));
  if (cfg.venue.kind === 'rest') add(journalCheck(files.journal));

  let sim: SimHandle | undefined;
  let client: RestClient | undefined;
  try {
    try {
      ({ sim, client } = await openVenue(cfg, cwd, createLogger({ level: 'silent' }), o.configPath, env));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      add(fail(`venue: ${error.message}`));
      return report();
    }
    const api = client;
    const venueFail = (what: string, error: unknown): PreflightCheck => ({
      ...fail(`${what}: ${messageOf(error)}`),
      ...(notReached(error) ? { unreachable: true } : {}),
    });

    let balances: Balances | undefined;
    try {
      balances = await api.tradeBalance();
      add(ok(`signed balance call (${Object.keys(balances).length} assets)`));
    } catch (error) {
      const refused = credentialsError(error, o.configPath);
      if (refused !== undefined) throw refused;
      add(venueFail('signed balance call', error));
    }

    let markets: Map<string, Market> | undefined;
    try {
      markets = new Map((await api.markets()).map((m) => [m.name, m]));
    } catch (error) {
      add(venueFail('markets', error));
    }
    if (markets !== undefined) {
      const prices = new Map<string, Decimal | undefined>();
      for (const name of new Set(strategies.map((s) => s.market))) {
        const m = markets.get(name);
        if (m === undefined) add(fail(`market ${name}: the venue has no such market (it has ${[...markets.keys()].join(', ')})`));
        else if (!m.tradesEnabled) add(fail(`market ${name}: trading is disabled on the venue`));
        else
          add(
            ok(
              `market ${name}: tradable, steps ${step(m.stockPrec)} / ${step(m.moneyPrec)}, minimum amount ${m.minAmount.toFixed()}, minimum total ${m.minTotal.toFixed()}`,
            ),
          );
        prices.set(name, m === undefined ? undefined : await midPrice(api, name));
      }
      for (const s of strategies) {
        const m = markets.get(s.market);
        if (m === undefined) continue;
        const price = prices.get(s.market);
        for (const c of strategyLimitChecks(s, m, {
          restVenue: cfg.venue.kind === 'rest',
          ...(price !== undefined ? { price } : {}),
          ...(balances !== undefined ? { balances } : {}),
        }))
          add(c);
      }
    }

    if (cfg.venue.kind === 'rest') {
      add(
        cfg.deadMan !== undefined
          ? ok(`dead-man timer configured: the venue cancels the orders ${cfg.deadMan.timeoutSec} s after the daemon stops resetting it`)
          : warn('no deadMan: if the daemon dies, its orders stay on the book (add deadMan: { timeoutSec: 30 } unless they are meant to)'),
      );
    }
    try {
      const timers = await api.killSwitchStatus();
      add(ok(`kill-switch endpoint answers (status: ${timers.length === 0 ? 'none' : timers.map((t) => `${t.market} armed`).join(', ')})`));
    } catch (error) {
      const refused = credentialsError(error, o.configPath);
      if (refused !== undefined) throw refused;
      add(venueFail('kill-switch endpoint', error));
    }
    return report();
  } finally {
    client?.close();
    await sim?.close();
  }
}

/** What a REST venue's restart would replay: the strict read of `bot run` (journal-scan.ts). */
function journalCheck(path: string): PreflightCheck {
  if (!existsSync(path)) return ok(`journal ${path}: none yet (the first run starts it)`);
  const scan = scanJournal(readFileSync(path));
  if (scan.corrupt.length > 0) return fail(`journal ${path}: damaged lines ${scan.corrupt.map((d) => d.line).join(', ')} (npx bot journal repair ${path})`);
  if (scan.torn !== undefined) return warn(`journal ${path}: ${scan.records.length} records; the torn last line ${scan.torn.line} will be dropped`);
  return ok(`journal ${path}: ${scan.records.length} records, no damaged line`);
}

/**
 * The mid of the best bid and ask (or the one side there is); undefined when the book stays empty or unreadable.
 * An empty book is asked again a few times, half a second apart: an embedded sim's synthetic flow posts its first
 * quotes a moment after the start.
 */
async function midPrice(api: RestClient, market: string): Promise<Decimal | undefined> {
  for (let attempt = 0; attempt < 6; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const book = await api.orderBook(market, { limit: 1 });
      const bid = book.bids[0]?.price;
      const ask = book.asks[0]?.price;
      if (bid !== undefined || ask !== undefined) return bid !== undefined && ask !== undefined ? bid.plus(ask).div(2) : (bid ?? ask);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The step of `places` decimal places: 6 -> 0.000001. */
const step = (places: number): string => D(10).pow(-places).toFixed();

function messageOf(error: unknown): string {
  if (error instanceof BotError) return `${error.message} [${error.code}]`;
  return error instanceof Error ? error.message : String(error);
}
