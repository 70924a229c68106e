/**
 * The sweep file (`bot sweep <sweep.yaml>`): a base backtest config, a search space over its values by path,
 * a sampler, an objective with constraints, and walk-forward folds.
 *
 * ```yaml
 * base: backtest.yaml                       # a `bot backtest` config, relative to this file
 * space:
 *   strategies[0].params.spread: { values: ["0.0004", "0.0006", "0.0008"] }
 *   strategies[0].params.levels: { from: 1, to: 3, step: 1 }
 *   strategies[0].params.size: { from: "0.005", to: "0.02", sample: log, digits: 4 }
 * sampler: { kind: tpe, trials: 40, seed: 1 }   # grid | random | tpe
 * objective: { figure: pessimistic.tradingPnl, direction: maximize }
 * constraints: ["maxDrawdown <= 200", "fills >= 20"]
 * folds: 1                                   # K > 1: walk-forward over K consecutive windows
 * inSample: 0.75                             # share of each fold's window used to choose (the rest scores)
 * fillModel: { queueAhead: 0.5, decreaseTrades: 0.25 }   # optional: replaces the base config's (bot parity --fit)
 * from: 2026-11-22T10:56:00Z                 # optional: only this part of the data (ISO or Unix time)
 * to: 2026-11-22T11:02:00Z
 * out: var/sweep
 * ```
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../src/model/errors.js';
import { interpolateEnv } from '../../src/settings/env-interpolate.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';
import { zIntLike } from '../../src/settings/decimal-schema.js';
import { parseTimeArg } from '../parse-time.js';
import { BacktestConfigSchema, type BacktestConfig } from '../backtest-config.js';
import { FillModelBlockSchema } from '../../src/fill-model/fill-model-params.js';
import { describe, parseParamPath, pathProblem } from './config-path.js';
import { checkLane, parseConstraint, parseFigure, type Constraint, type FigureRef } from './objective.js';
import { relocateStrategyUses } from './strategy-uses.js';
import { listDimension, rangeDimension, type Dimension } from './param-space.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const bound = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, 'expected a number such as 0.001 or "0.001"')]);
const SpaceEntry = z.union([
  z.strictObject({ values: z.array(scalar).min(1) }),
  z.strictObject({ from: bound, to: bound, step: bound }),
  z.strictObject({
    from: bound,
    to: bound,
    sample: z.enum(['uniform', 'log']).default('uniform'),
    digits: zIntLike.pipe(z.number().int().min(0).max(30)).optional(),
  }),
]);

/** ISO date-time or Unix time (ms, or s with 10 digits), as `bot backtest --from/--to` take it. */
const timePoint = z.union([z.number(), z.string()]).transform((v, ctx) => {
  try {
    return parseTimeArg(String(v));
  } catch {
    ctx.addIssue({ code: 'custom', message: `expected an ISO date-time (2026-01-01T10:00:00Z) or Unix time, got ${JSON.stringify(v)}`, input: v });
    return z.NEVER;
  }
});

export const SweepConfigSchema = z.strictObject({
  base: z.string().min(1),
  space: z.record(z.string().min(1), SpaceEntry).refine((s) => Object.keys(s).length > 0, 'expected at least one parameter'),
  sampler: z
    .strictObject({
      kind: z.enum(['grid', 'random', 'tpe']).default('grid'),
      trials: zIntLike.pipe(z.number().int().positive()).optional(),
      seed: zIntLike.pipe(z.number().int()).default(1),
      startup: zIntLike.pipe(z.number().int().min(1)).optional(),
    })
    .default({ kind: 'grid', seed: 1 }),
  objective: z
    .strictObject({ figure: z.string().default('pessimistic.tradingPnl'), direction: z.enum(['maximize', 'minimize']).default('maximize') })
    .default({ figure: 'pessimistic.tradingPnl', direction: 'maximize' }),
  constraints: z.array(z.string()).default([]),
  folds: zIntLike.pipe(z.number().int().min(1).max(50)).default(1),
  inSample: z.number().gt(0).lt(1).default(0.75),
  /** Replaces the base config's `fillModel:` in every trial (the block `bot parity --fit` writes). */
  fillModel: FillModelBlockSchema.optional(),
  from: timePoint.optional(),
  to: timePoint.optional(),
  out: z.string().min(1).default('var/sweep'),
});

export type SweepConfig = z.output<typeof SweepConfigSchema>;

/** A sweep file resolved against its base config: everything a sweep needs before running a trial. */
export interface SweepPlan {
  readonly file: string;
  readonly config: SweepConfig;
  readonly baseFile: string;
  /** The base config as a plain object (after ${ENV}), into which each trial's values are written. */
  readonly baseRaw: Record<string, unknown>;
  readonly base: BacktestConfig;
  /** Absolute recording paths. */
  readonly dataFiles: readonly string[];
  readonly dims: readonly Dimension[];
  readonly objective: FigureRef & { readonly direction: 'maximize' | 'minimize'; readonly text: string };
  readonly constraints: readonly Constraint[];
}

export function loadSweepPlan(file: string, env: NodeJS.ProcessEnv = process.env): SweepPlan {
  const config = loadYamlConfig(file, SweepConfigSchema, env);
  const baseFile = isAbsolute(config.base) ? config.base : join(dirname(resolve(file)), config.base);
  const loaded = loadYamlConfig(baseFile, BacktestConfigSchema, env);
  const loadedRaw = interpolateEnv(parse(readFileSync(baseFile, 'utf8')), env, []) as Record<string, unknown>;
  relocateStrategyUses(loadedRaw, baseFile);
  // the sweep's own fillModel goes into the base before the space's values do (a space may tune it further)
  const fillModel = config.fillModel;
  const base: BacktestConfig = fillModel === undefined ? loaded : { ...loaded, fillModel };
  const baseRaw = fillModel === undefined ? loadedRaw : { ...loadedRaw, fillModel: { ...fillModel } };
  const problems: string[] = [];
  const dims: Dimension[] = [];
  for (const [path, spec] of Object.entries(config.space)) {
    try {
      const keys = parseParamPath(path);
      const why = pathProblem(baseRaw, keys);
      if (why !== undefined) throw new ConfigError(`${why} (${baseFile})`);
      dims.push('values' in spec ? listDimension(describe(keys), keys, spec.values) : rangeDimension(describe(keys), keys, spec));
    } catch (e) {
      problems.push(`${file}: space.${path}: ${e instanceof Error ? e.message.replace(/^space '[^']*': /, '') : String(e)}`);
    }
  }
  const s = config.sampler;
  if (s.kind !== 'grid' && s.trials === undefined) problems.push(`${file}: sampler.trials: missing (the ${s.kind} sampler needs a number of trials)`);
  let objective: SweepPlan['objective'] | undefined;
  const constraints: Constraint[] = [];
  try {
    const ref = parseFigure(config.objective.figure);
    checkLane(ref, base.fills);
    objective = { ...ref, direction: config.objective.direction, text: `${ref.lane}.${ref.figure}` };
    for (const c of config.constraints) {
      const parsed = parseConstraint(c, ref.lane);
      checkLane(parsed, base.fills);
      constraints.push(parsed);
    }
  } catch (e) {
    problems.push(`${file}: objective/constraints: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (problems.length > 0 || objective === undefined) throw new ConfigError(problems.join('\n'));
  const baseDir = dirname(baseFile);
  const dataFiles = base.data.map((f) => (isAbsolute(f) ? f : join(baseDir, f)));
  if (dataFiles.length === 0) throw new ConfigError(`${baseFile}: data: the base config names no recording`);
  return { file, config, baseFile, baseRaw, base, dataFiles, dims, objective, constraints };
}
