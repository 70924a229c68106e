/**
 * One trial: a resolved backtest config on content-addressed data and a time window, run through the
 * backtest's own entry point (runBacktestOfConfig). The same function runs in-process, in a pool thread
 * and in a `bot worker`; its result is plain JSON and depends only on the job.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../../src/model/errors.js';
import { formatConfigPath } from '../../src/settings/env-interpolate.js';
import { formatZodIssues } from '../../src/settings/format-issues.js';
import { BacktestConfigSchema } from '../backtest-config.js';
import type { RecordingCacheOptions } from '../data/cache-settings.js';
import { runBacktestOfConfig } from '../run-from-config.js';
import { locateData, type DataRef } from './data-files.js';
import type { Lanes } from './objective.js';
import { figuresHash } from './trial-key.js';

export interface TrialJob {
  readonly key: string;
  /** The backtest config with the trial's values (data and out left out). */
  readonly config: Record<string, unknown>;
  readonly data: readonly DataRef[];
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  /** Where strategy paths (`use: ./x.ts`) resolve; a worker without it uses its own current directory. */
  readonly cwd?: string | undefined;
}

export interface TrialFigures {
  readonly key: string;
  /** Per lane: the report's metrics (decimals as strings) and order counts. */
  readonly lanes: Lanes;
  readonly figuresHash: string;
  readonly start: string;
  readonly end: string;
  readonly snapshots: number;
  /** Wall time of the run (not part of the figures' hash). */
  readonly ms: number;
}

export interface TrialRunOptions {
  readonly dataDir?: string | undefined;
  readonly cache?: RecordingCacheOptions | undefined;
}

export async function runTrial(job: TrialJob, o: TrialRunOptions = {}): Promise<TrialFigures> {
  const t0 = performance.now();
  const files = await locateData(job.data, o.dataDir);
  const parsed = BacktestConfigSchema.safeParse({ ...job.config, data: files }, { reportInput: true });
  if (!parsed.success) {
    throw new ConfigError(
      `trial config: ${formatZodIssues(parsed.error.issues)
        .map((i) => `${formatConfigPath(i.path)}: ${i.text}`)
        .join('; ')}`,
    );
  }
  const { report } = await runBacktestOfConfig(parsed.data, {
    files,
    from: job.from,
    to: job.to,
    maxPoints: 2,
    ...(job.cwd !== undefined && existsSync(job.cwd) ? { cwd: job.cwd } : {}),
    ...(o.cache === undefined ? {} : { cache: o.cache }),
  });
  const lanes: Record<string, Record<string, unknown>> = {};
  for (const lane of report.lanes) {
    const rejections = Object.values(lane.rejections).reduce((a, b) => a + b, 0);
    lanes[lane.assumption] = {
      ...lane.metrics,
      ordersAccepted: lane.orders.accepted,
      ordersCanceled: lane.orders.canceled,
      intents: lane.orders.intents,
      rejections,
      errors: lane.errors.length,
    };
  }
  return {
    key: job.key,
    lanes,
    figuresHash: figuresHash(lanes),
    start: report.start,
    end: report.end,
    snapshots: report.snapshots,
    ms: Math.round(performance.now() - t0),
  };
}
