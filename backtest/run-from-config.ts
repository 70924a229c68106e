/**
 * `bot backtest` without the CLI: load the config, resolve strategies and data, plan polling within
 * the rate limits, replay, and write `report.json` + `report.html` into the output directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Decimal } from '../src/model/decimal.js';
import type { RuntimeStrategy } from '../src/engine/runtime.js';
import { loadYamlConfig } from '../src/settings/load-yaml.js';
import { loadStrategy } from '../src/strategy/load-strategy.js';
import { planPolling } from '../src/streams/polling-plan.js';
import { BacktestConfigSchema, type BacktestConfig } from './backtest-config.js';
import { buildReport, type BacktestReport } from './report/build-report.js';
import { renderHtmlReport } from './report/html-report.js';
import type { RecordingCacheOptions } from './data/cache-settings.js';
import { runBacktest, type BacktestResult } from './replay/run-backtest.js';
import { FILL_MODEL_DOC } from './fill-model/fill-model-doc.js';

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
}

export interface BacktestRun {
  readonly config: BacktestConfig;
  readonly result: BacktestResult;
  readonly report: BacktestReport;
  readonly jsonPath: string;
  readonly htmlPath: string;
}

export async function resolveStrategies(config: BacktestConfig, cwd: string): Promise<RuntimeStrategy[]> {
  const out: RuntimeStrategy[] = [];
  for (const s of config.strategies) {
    out.push({ id: s.id, definition: await loadStrategy(s.use, cwd), params: s.params, market: s.market, risk: s.risk });
  }
  return out;
}

export interface ConfigRunOptions {
  /** Recording files (absolute or relative to the current directory). */
  readonly files: readonly string[];
  readonly from?: number;
  readonly to?: number;
  readonly logger?: Logger;
  readonly onProgress?: (done: number, total: number) => void;
  readonly cache?: RecordingCacheOptions;
  /** Where `use: ./my-strategy.ts` paths are resolved. Default: the current directory. */
  readonly cwd?: string;
  /** Points per chart series in the report. Default 2000. */
  readonly maxPoints?: number;
}

/** One backtest of an already validated config, without writing files (sweeps run many of these). */
export async function runBacktestOfConfig(config: BacktestConfig, o: ConfigRunOptions): Promise<{ result: BacktestResult; report: BacktestReport }> {
  const files = o.files.map((f) => resolve(f));
  const strategies = await resolveStrategies(config, o.cwd ?? process.cwd());
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
  const result = await runBacktest({
    files,
    ...(o.from !== undefined ? { from: o.from } : {}),
    ...(o.to !== undefined ? { to: o.to } : {}),
    strategies,
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
    sampleMs: config.sampleMs,
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.cache === undefined ? {} : { cache: o.cache }),
  });
  const report = buildReport(result, { files, initial: balances, fillModelDoc: FILL_MODEL_DOC, ...(o.maxPoints === undefined ? {} : { maxPoints: o.maxPoints }) });
  return { result, report };
}

export async function runBacktestFromConfig(o: BacktestRunOptions): Promise<BacktestRun> {
  const config = loadYamlConfig(o.configFile, BacktestConfigSchema);
  const base = dirname(resolve(o.configFile));
  const files = o.data && o.data.length > 0 ? o.data.map((f) => resolve(f)) : config.data.map((f) => (isAbsolute(f) ? f : join(base, f)));
  const { result, report } = await runBacktestOfConfig(config, {
    files,
    ...(o.from !== undefined ? { from: o.from } : {}),
    ...(o.to !== undefined ? { to: o.to } : {}),
    ...(o.logger ? { logger: o.logger } : {}),
    ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    ...(o.cache === undefined ? {} : { cache: o.cache }),
  });
  const outDir = resolve(o.out ?? config.out);
  mkdirSync(outDir, { recursive: true });
  const jsonPath = join(outDir, 'report.json');
  const htmlPath = join(outDir, 'report.html');
  writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(htmlPath, renderHtmlReport(report));
  return { config, result, report, jsonPath, htmlPath };
}
