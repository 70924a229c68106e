/**
 * The sweep: per fold, ask the sampler for trials, run them on an executor (keeping `concurrency` in flight),
 * score each (objective and constraints) and tell the sampler; then, with walk-forward folds, run the fold's best
 * parameters on its out-of-sample window. Every finished trial is appended to trials.jsonl as it finishes; with
 * `resume`, logged trials are not run again and their sampler history is replayed in the same order.
 * Trials are identified by key (config + data hashes + window), so a trial asked twice runs once.
 */
import { join } from 'node:path';
import type { RecordingCacheOptions } from '../data/cache-settings.js';
import { readMarketHead } from '../data/read-market-head.js';
import type { FeeRates } from '../../src/fill-model/fill-model-params.js';
import { withValues } from './config-path.js';
import { hashDataFiles, type DataRef } from './data-files.js';
import { dataSpan, walkForwardFolds, type Fold, type Window } from './folds.js';
import { gridSampler } from './grid-sampler.js';
import { brokenConstraints, figureValue } from './objective.js';
import { randomSampler } from './random-sampler.js';
import type { TrialFigures, TrialJob } from './run-trial.js';
import type { Observation, Params, Sampler } from './sampler.js';
import type { SweepPlan } from './sweep-config.js';
import { tpeSampler } from './tpe-sampler.js';
import type { TrialExecutor } from './trial-executor.js';
import { canonicalJson, sha256, trialKey } from './trial-key.js';
import { TrialsLog, type TrialRecord } from './trials-log.js';

export interface SweepProgress {
  readonly done: number;
  readonly total: number;
  /** Best objective so far (in-sample search trials that met the constraints). */
  readonly best: number | undefined;
  readonly etaMs: number | undefined;
}

export interface SweepRunOptions {
  readonly plan: SweepPlan;
  readonly executor: TrialExecutor;
  readonly outDir: string;
  readonly resume?: boolean;
  readonly signal?: AbortSignal;
  readonly onTrial?: (rec: TrialRecord, progress: SweepProgress) => void;
  /** Where strategy paths resolve (sent with each job). Default: the current directory. */
  readonly cwd?: string;
  readonly cache?: RecordingCacheOptions;
}

export interface FoldOutcome {
  readonly fold: Fold;
  readonly best: TrialRecord | undefined;
  readonly oos: TrialRecord | undefined;
}

export interface SweepOutcome {
  readonly plan: SweepPlan;
  readonly executor: string;
  readonly data: readonly DataRef[];
  readonly records: readonly TrialRecord[];
  readonly folds: readonly FoldOutcome[];
  readonly interrupted: boolean;
  readonly elapsedMs: number;
  /** The data's fee rates (its first file's market record); undefined when it has none. */
  readonly fees?: FeeRates | undefined;
}

export function makeSampler(plan: SweepPlan, fold: number): Sampler {
  const s = plan.config.sampler;
  const seed = s.seed + fold;
  if (s.kind === 'grid') return gridSampler(plan.dims);
  if (s.kind === 'random') return randomSampler(plan.dims, { trials: s.trials!, seed });
  return tpeSampler(plan.dims, { trials: s.trials!, seed, ...(s.startup === undefined ? {} : { startup: s.startup }) });
}

/** The resolved config of a trial (identity and job payload): base + values, without data/out/log. */
export function trialConfig(plan: SweepPlan, params: Params): Record<string, unknown> {
  const raw = withValues(
    plan.baseRaw,
    plan.dims.map((d) => [d.keys, params[d.path]] as const),
  ) as Record<string, unknown>;
  delete raw['data'];
  delete raw['out'];
  delete raw['log'];
  return raw;
}

export function planHash(plan: SweepPlan, data: readonly DataRef[]): string {
  const { space, sampler, objective, constraints, folds, inSample, from, to } = plan.config;
  return sha256(
    canonicalJson({ space, sampler, objective, constraints, folds, inSample, from, to, base: trialConfig(plan, {}), data: data.map((d) => d.sha256) }),
  ).slice(0, 16);
}

export async function runSweep(o: SweepRunOptions): Promise<SweepOutcome> {
  const t0 = Date.now();
  const { plan } = o;
  const data = await hashDataFiles(plan.dataFiles);
  const market = await readMarketHead(plan.dataFiles[0]!).catch(() => undefined);
  const { from, to } = plan.config;
  const span = plan.config.folds > 1 ? await dataSpan(plan.dataFiles, o.cache) : { from: 0, to: 0 };
  const folds = walkForwardFolds(
    { from: Math.max(span.from, from ?? span.from), to: Math.min(span.to, to ?? span.to) },
    plan.config.folds,
    plan.config.inSample,
    from !== undefined || to !== undefined ? { from: from ?? 0, to: to ?? Number.MAX_SAFE_INTEGER } : undefined,
  );
  const log = new TrialsLog(join(o.outDir, 'trials.jsonl'));
  const hash = planHash(plan, data);
  const logged = o.resume ? log.resume(hash, plan.file) : (log.start(hash, plan.file), []);
  // Failed trials are run again on resume (the cause may have been fixed); finished ones are kept.
  const finished = new Map<string, TrialRecord>();
  for (const r of logged) if (r.status !== 'failed') finished.set(`${r.fold}/${r.phase}/${r.index}`, r);
  const byKey = new Map<string, TrialRecord>();
  for (const r of finished.values()) byKey.set(r.key, r);

  const perFold = makeSampler(plan, 0).total + (folds.length > 1 ? 1 : 0);
  const total = perFold * folds.length;
  const records: TrialRecord[] = [];
  let done = 0;
  let ran = 0;
  let best: number | undefined;
  let aborted = o.signal?.aborted ?? false;
  const sign = plan.objective.direction === 'maximize' ? 1 : -1;
  const abortWait = new Promise<void>((resolve) => o.signal?.addEventListener('abort', () => ((aborted = true), resolve()), { once: true }));

  const record = (rec: TrialRecord, fresh: boolean): void => {
    records.push(rec);
    done += 1;
    if (fresh) log.append(rec);
    if (rec.phase === 'search' && rec.status === 'ok' && rec.objective !== undefined && (best === undefined || sign * rec.objective > sign * best))
      best = rec.objective;
    const left = total - done;
    // From the trials run in this session (resumed ones take no time), wall time per trial at the current concurrency.
    const etaMs = ran > 0 ? (left * (Date.now() - t0)) / ran : undefined;
    o.onTrial?.(rec, { done, total, best, etaMs });
  };

  const score = (fold: number, phase: TrialRecord['phase'], index: number, key: string, params: Params, figures: TrialFigures): TrialRecord => {
    const objective = figureValue(figures.lanes, plan.objective);
    const broken = brokenConstraints(figures.lanes, plan.constraints);
    if (objective === undefined) broken.push(`${plan.objective.text} is not a number`);
    return {
      type: 'trial',
      fold,
      phase,
      index,
      key,
      params,
      status: broken.length > 0 ? 'rejected' : 'ok',
      objective,
      ...(broken.length > 0 ? { broken } : {}),
      figures,
    };
  };

  const job = (params: Params, w: Window | undefined): TrialJob => {
    const config = trialConfig(plan, params);
    const key = trialKey({ config, dataHashes: data.map((d) => d.sha256), from: w?.from, to: w?.to });
    return { key, config, data, from: w?.from, to: w?.to, cwd: o.cwd ?? process.cwd() };
  };

  /** Runs (or reuses) one trial; resolves with its record, or undefined when the sweep was stopped meanwhile. */
  const trial = async (fold: number, phase: TrialRecord['phase'], index: number, params: Params, w: Window | undefined): Promise<TrialRecord | undefined> => {
    const j = job(params, w);
    const again = byKey.get(j.key);
    if (again !== undefined) {
      const rec = { ...again, fold, phase, index, params };
      record(rec, true);
      return rec;
    }
    let rec: TrialRecord;
    try {
      const figures = await o.executor.run(j);
      rec = score(fold, phase, index, j.key, params, figures);
    } catch (e) {
      if (aborted) return undefined;
      rec = { type: 'trial', fold, phase, index, key: j.key, params, status: 'failed', error: e instanceof Error ? e.message : String(e) };
    }
    if (aborted) return undefined;
    ran += 1;
    if (rec.status !== 'failed') byKey.set(rec.key, rec);
    record(rec, true);
    return rec;
  };

  const outcomes: FoldOutcome[] = [];
  for (const fold of folds) {
    if (aborted) break;
    const sampler = makeSampler(plan, fold.index);
    const history: Observation[] = [];
    const foldRecords: TrialRecord[] = [];
    const observe = (rec: TrialRecord): void => {
      foldRecords.push(rec);
      history.push({ params: rec.params, score: rec.status === 'ok' ? sign * rec.objective! : rec.status === 'rejected' ? -Infinity : undefined });
    };
    const inflight = new Set<Promise<void>>();
    let next = 0;
    while (!aborted && (next < sampler.total || inflight.size > 0)) {
      while (!aborted && next < sampler.total && inflight.size < o.executor.concurrency) {
        const index = next++;
        const prior = finished.get(`${fold.index}/search/${index}`);
        if (prior !== undefined) {
          // Resumed: the logged trial stands for itself and enters the sampler's history in its place.
          record(prior, false);
          observe(prior);
          continue;
        }
        const p = trial(fold.index, 'search', index, sampler.ask(index, history), fold.inSample).then((rec) => {
          if (rec !== undefined) observe(rec);
        });
        const tracked = p.finally(() => inflight.delete(tracked));
        inflight.add(tracked);
      }
      if (inflight.size > 0) await Promise.race([...inflight, abortWait]);
    }
    if (aborted) break;
    const chosen = bestOf(foldRecords, sign);
    let oos: TrialRecord | undefined;
    if (chosen !== undefined && fold.outOfSample !== undefined) {
      const prior = finished.get(`${fold.index}/oos/0`);
      if (prior !== undefined && prior.key === job(chosen.params, fold.outOfSample).key) {
        record(prior, false);
        oos = prior;
      } else {
        oos = await Promise.race([trial(fold.index, 'oos', 0, chosen.params, fold.outOfSample), abortWait.then(() => undefined)]);
      }
    }
    if (aborted) break;
    outcomes.push({ fold, best: chosen, oos });
  }
  const fees = market === undefined ? undefined : { maker: market.makerFee, taker: market.takerFee };
  return { plan, executor: o.executor.name, data, records, folds: outcomes, interrupted: aborted, elapsedMs: Date.now() - t0, fees };
}

/** The trial with the best objective among those that met the constraints (first one on ties). */
export function bestOf(records: readonly TrialRecord[], sign: number): TrialRecord | undefined {
  let best: TrialRecord | undefined;
  for (const r of records) {
    if (r.status !== 'ok' || r.objective === undefined) continue;
    if (best === undefined || sign * r.objective > sign * best.objective!) best = r;
  }
  return best;
}
