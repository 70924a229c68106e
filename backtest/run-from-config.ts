/**
 * `bot backtest` without the CLI: load the config, resolve strategies and data, plan polling within
 * the rate limits, replay, and write `report.json` + `report.html` into the output directory.
 */
import { writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Decimal } from '../src/model/decimal.js';
import type { RuntimeStrategy } from '../src/engine/runtime.js';
import { ConfigError } from '../src/model/errors.js';
import { loadYamlConfig } from '../src/settings/load-yaml.js';
import { checkWritableFolder } from '../src/settings/file-paths.js';
import { checkLimitTickers } from '../src/settings/limit-tickers.js';
import { readRecordingLines } from '../src/recording/recording-format.js';
import { loadStrategy } from '../src/strategy/load-strategy.js';
import { builtinStrategies } from '../strategies/index.js';
import { planPolling } from '../src/streams/polling-plan.js';
import { BacktestConfigSchema, type BacktestConfig } from './backtest-config.js';
import { locateConfigStrategies } from './config-strategies.js';
import { buildReport, type BacktestReport } from './report/build-report.js';
import { renderHtmlReport } from './report/html-report.js';
import type { RecordingCacheOptions } from './data/cache-settings.js';
import { runBacktest, type BacktestOptions } from './replay/run-backtest.js';
import type { ReplayOutcome } from './replay/lane-view.js';
import type { StrategySource } from './replay/run-parallel.js';
import { createReplayStop, type ReplayStop } from './replay/replay-stop.js';
import { FILL_MODEL_DOC } from '../src/fill-model/fill-model-doc.js';

export interface BacktestRunOptions {
  readonly configFile: string;
  /** Overrides the config's `data`. Relative to the current directory. */
  readonly data?: readonly string[];
  readonly from?: number;
  readonly to?: number;
  readonly out?: string;
  readonly logger?: Logger;
  readonly onProgress?: (done: number, total: number) => void;
  /** The recording cache (`bot backtest --cache DIR` / `--no-cache`). */
  readonly cache?: RecordingCacheOptions;
  /** Each fill assumption beyond the first on a worker thread (run-parallel.ts). Default true; `--sequential` turns it off. */
  readonly parallelLanes?: boolean;
  /** Stops the replay where it is (Ctrl-C); the report then covers what ran and says `partial`. */
  readonly signal?: AbortSignal;
}

export interface BacktestRun {
  readonly config: BacktestConfig;
  readonly result: ReplayOutcome;
  readonly report: BacktestReport;
  readonly jsonPath: string;
  readonly htmlPath: string;
}

/** `configFile` names the file in the errors of a strategy that cannot be loaded. */
export async function resolveStrategies(config: BacktestConfig, cwd: string, configFile?: string): Promise<RuntimeStrategy[]> {
  const out: RuntimeStrategy[] = [];
  for (const [i, s] of config.strategies.entries()) {
    const definition = await loadStrategy(builtinStrategies, s.use, cwd, configFile === undefined ? undefined : `${configFile}: strategies[${i}].use`);
    out.push({ id: s.id, definition, params: s.params, market: s.market, risk: s.risk, where: `${configFile ?? 'backtest config'}: strategies[${i}].params` });
  }
  return out;
}

/**
 * The replay's own config errors (`backtest: ...`: data unreadable, a strategy's market not the data's) name the
 * config file too, as every config error does (a config-fuzzer finding: they named neither file nor path).
 */
async function runBacktestNamingConfig(configFile: string, run: () => Promise<ReplayOutcome>): Promise<ReplayOutcome> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ConfigError && error.message.startsWith('backtest: ')) {
      throw new ConfigError(`${configFile}: ${error.message.slice('backtest: '.length)}`, { cause: error });
    }
    throw error;
  }
}

export interface ConfigRunOptions {
  /** Recording files (absolute or relative to the current directory). */
  readonly files: readonly string[];
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  readonly logger?: Logger | undefined;
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
  readonly cache?: RecordingCacheOptions | undefined;
  /** Where `use: ./my-strategy.ts` paths are resolved. Default: the current directory. */
  readonly cwd?: string | undefined;
  /** Points per chart series in the report. Default 2000. */
  readonly maxPoints?: number | undefined;
  /** Named in config errors (the sweep names its base config). Default: `backtest config`. */
  readonly configFile?: string | undefined;
  /** Each fill assumption beyond the first on a worker thread (run-parallel.ts). Default false (sweeps run trials in parallel already). */
  readonly parallelLanes?: boolean | undefined;
  /** Stops the replay where it is; the result is then `partial`. */
  readonly signal?: AbortSignal | undefined;
}

/** One backtest of an already validated config, without writing files (sweeps run many of these). */
export async function runBacktestOfConfig(config: BacktestConfig, o: ConfigRunOptions): Promise<{ result: ReplayOutcome; report: BacktestReport }> {
  const files = o.files.map((f) => resolve(f));
  const configFile = o.configFile ?? 'backtest config';
  const cwd = o.cwd ?? process.cwd();
  const strategies = await resolveStrategies(config, cwd, configFile);
  const p = config.polling;
  const plan = planPolling({
    markets: strategies.map((s) => s.market),
    wishes: {
      ...(p.bookMs !== undefined ? { bookMs: p.bookMs } : {}),
      ...(p.balancesMs !== undefined ? { balancesMs: p.balancesMs } : {}),
      ...(p.openOrdersMs !== undefined ? { openOrdersMs: p.openOrdersMs } : {}),
      ...(p.dealsMs !== undefined ? { dealsMs: p.dealsMs } : {}),
    },
    ...(p.reserve !== undefined ? { reserve: p.reserve } : {}),
  });
  const balances: Record<string, Decimal> = { ...config.balances };
  if (files.length === 0) throw new ConfigError(`${configFile}: data: no recording given (list files under data:, or pass --data FILE)`);
  const options: Omit<BacktestOptions, 'strategies'> = {
    files,
    ...(o.from !== undefined ? { from: o.from } : {}),
    ...(o.to !== undefined ? { to: o.to } : {}),
    balances,
    polling: {
      ...plan.intervals,
      ...(p.bookLimit !== undefined ? { bookLimit: p.bookLimit } : {}),
      ...(p.bookLevel !== undefined ? { bookLevel: p.bookLevel } : {}),
      ...(p.staleAfterMs !== undefined ? { staleAfterMs: p.staleAfterMs } : {}),
    },
    latency: config.latency,
    rateLimits: config.rateLimits,
    assumptions: config.fills,
    fillModel: config.fillModel,
    sampleMs: config.sampleMs,
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.cache === undefined ? {} : { cache: o.cache }),
    // the report reads no journal
    keepJournal: false,
  };
  const sources: StrategySource[] = config.strategies.map((s, i) => ({
    id: s.id,
    use: s.use,
    cwd,
    params: s.params,
    market: s.market,
    risk: s.risk,
    where: `${configFile}: strategies[${i}].params`,
    loadWhere: `${configFile}: strategies[${i}].use`,
  }));
  const parallel = o.parallelLanes === true && config.fills.length > 1;
  const stop = o.signal === undefined ? undefined : stopOnAbort(o.signal, parallel ? config.fills.length : 1);
  const stoppable = { ...options, ...(stop !== undefined ? { stop } : {}) };
  const result = await runBacktestNamingConfig(configFile, async () =>
    // the lane threads' modules (worker start, lane wire, lane digests) only when a lane runs on one
    parallel ? (await import('./replay/run-parallel.js')).runBacktestParallel({ ...stoppable, sources }) : runBacktest({ ...stoppable, strategies }),
  );
  const report = buildReport(result, {
    files,
    initial: balances,
    fillModelDoc: FILL_MODEL_DOC,
    fillModelParams: config.fillModel,
    ...(o.maxPoints === undefined ? {} : { maxPoints: o.maxPoints }),
  });
  return { result, report };
}

/** A ReplayStop for `participants` replay threads, requested when the signal aborts. */
function stopOnAbort(signal: AbortSignal, participants: number): ReplayStop {
  const stop = createReplayStop(participants);
  if (signal.aborted) stop.request();
  else signal.addEventListener('abort', () => stop.request(), { once: true });
  return stop;
}

/**
 * The config's `risk.maxInventory` tickers against the data's market (the first recording's market record): a key
 * that is neither its stock nor its money limits nothing, so it is a ConfigError naming the file and key. A file
 * that cannot be read is left to the replay, which says so.
 */
export async function checkBacktestLimits(config: BacktestConfig, files: readonly string[], configFile: string): Promise<void> {
  const first = files[0];
  if (first === undefined) return;
  let market;
  try {
    for await (const line of readRecordingLines(first)) {
      if (line.type === 'market') market = line.market;
      break;
    }
  } catch {
    return;
  }
  if (market !== undefined) checkLimitTickers(config.strategies, new Map([[market.name, market]]), configFile);
}

export async function runBacktestFromConfig(o: BacktestRunOptions): Promise<BacktestRun> {
  const config = await locateConfigStrategies(loadYamlConfig(o.configFile, BacktestConfigSchema), o.configFile);
  const base = dirname(resolve(o.configFile));
  const files = o.data && o.data.length > 0 ? o.data.map((f) => resolve(f)) : config.data.map((f) => (isAbsolute(f) ? f : join(base, f)));
  await checkBacktestLimits(config, files, o.configFile);
  // the report folder before the replay, not after it: a bad `out` names its key at once
  const outDir = checkWritableFolder(o.out ?? config.out, o.out !== undefined ? { key: '--out' } : { configFile: o.configFile, key: 'out' });
  const { result, report } = await runBacktestOfConfig(config, {
    files,
    configFile: o.configFile,
    ...(o.from !== undefined ? { from: o.from } : {}),
    ...(o.to !== undefined ? { to: o.to } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.cache === undefined ? {} : { cache: o.cache }),
    parallelLanes: o.parallelLanes ?? true,
    ...(o.signal !== undefined ? { signal: o.signal } : {}),
  });
  const jsonPath = join(outDir, 'report.json');
  const htmlPath = join(outDir, 'report.html');
  writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(htmlPath, renderHtmlReport(report));
  return { config, result, report, jsonPath, htmlPath };
}
