/**
 * `DIR/sweep.json`: what a sweep found, as plain JSON. Trials are counted once per key (a trial asked twice, or
 * run on two workers, is one result); the best trials carry their parameters and both lanes' headline figures;
 * folds show the in-sample best against its out-of-sample score.
 */
import type { TrialRecord } from './trials-log.js';
import type { SweepOutcome } from './run-sweep.js';
import type { Window } from './folds.js';
import { fillModelLine, type FillModelParams } from '../../src/fill-model/fill-model-params.js';

export const HEADLINE = ['tradingPnl', 'equityChange', 'fills', 'fees', 'volume', 'maxDrawdown', 'sharpe', 'returnFraction'] as const;

export interface ReportTrial {
  readonly fold: number;
  readonly phase: 'search' | 'oos';
  readonly index: number;
  readonly key: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly status: string;
  readonly objective: number | null;
  readonly broken?: readonly string[];
  readonly error?: string;
  readonly figuresHash: string | null;
  /** Headline figures per lane. */
  readonly lanes: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export interface SweepReport {
  readonly generatedBy: string;
  readonly sweep: string;
  readonly base: string;
  readonly data: readonly { readonly path: string; readonly sha256: string }[];
  readonly executor: string;
  readonly elapsedSec: number;
  readonly interrupted: boolean;
  readonly sampler: Readonly<Record<string, unknown>>;
  readonly objective: { readonly figure: string; readonly direction: string };
  readonly constraints: readonly string[];
  /** The base config's fill model (after the sweep file's `fillModel:`), unless the space tunes it per trial. */
  readonly fillModel: FillModelParams;
  /** The data's fee rates as fractions (0.001 = 0.1 %), or null when the data has no market record at its head. */
  readonly fees: { readonly maker: string; readonly taker: string } | null;
  /** The two above in one line, as every report prints them. */
  readonly fillModelLine: string;
  readonly space: readonly {
    readonly path: string;
    readonly values?: readonly unknown[];
    readonly from?: string;
    readonly to?: string;
    readonly log?: boolean;
  }[];
  readonly counts: { readonly trials: number; readonly ok: number; readonly rejected: number; readonly failed: number };
  readonly best: readonly ReportTrial[];
  readonly folds: readonly {
    readonly index: number;
    readonly inSample: Window | null;
    readonly outOfSample: Window | null;
    readonly best: ReportTrial | null;
    readonly outOfSampleResult: ReportTrial | null;
  }[];
  readonly trials: readonly ReportTrial[];
}

function toReport(r: TrialRecord): ReportTrial {
  const lanes: Record<string, Record<string, unknown>> = {};
  for (const [lane, figs] of Object.entries(r.figures?.lanes ?? {})) lanes[lane] = Object.fromEntries(HEADLINE.map((k) => [k, figs[k] ?? null]));
  return {
    fold: r.fold,
    phase: r.phase,
    index: r.index,
    key: r.key,
    params: r.params,
    status: r.status,
    objective: r.objective ?? null,
    ...(r.broken ? { broken: r.broken } : {}),
    ...(r.error !== undefined ? { error: r.error } : {}),
    figuresHash: r.figures?.figuresHash ?? null,
    lanes,
  };
}

export function buildSweepReport(s: SweepOutcome, topN = 10): SweepReport {
  const sign = s.plan.objective.direction === 'maximize' ? 1 : -1;
  // One result per key and phase: duplicates (asked twice, delivered twice) count once.
  const unique = new Map<string, TrialRecord>();
  for (const r of s.records) if (!unique.has(`${r.phase}/${r.key}`)) unique.set(`${r.phase}/${r.key}`, r);
  const all = [...unique.values()];
  const search = all.filter((r) => r.phase === 'search');
  const best = search
    .filter((r) => r.status === 'ok' && r.objective !== undefined)
    .sort((a, b) => sign * (b.objective! - a.objective!) || a.fold - b.fold || a.index - b.index)
    .slice(0, topN)
    .map(toReport);
  const c = s.plan.config;
  return {
    generatedBy: 'bot sweep',
    sweep: s.plan.file,
    base: s.plan.baseFile,
    data: s.data,
    executor: s.executor,
    elapsedSec: Math.round(s.elapsedMs / 100) / 10,
    interrupted: s.interrupted,
    sampler: { ...c.sampler, folds: c.folds, ...(c.folds > 1 ? { inSample: c.inSample } : {}) },
    objective: { figure: s.plan.objective.text, direction: s.plan.objective.direction },
    constraints: s.plan.constraints.map((x) => `${x.lane}.${x.figure} ${x.op} ${x.bound}`),
    fillModel: { ...s.plan.base.fillModel },
    fees: s.fees === undefined ? null : { maker: s.fees.maker.toFixed(), taker: s.fees.taker.toFixed() },
    fillModelLine:
      fillModelLine(s.plan.base.fillModel, s.fees) + (s.plan.dims.some((d) => d.path.startsWith('fillModel.')) ? ' (the space tunes it per trial)' : ''),
    space: s.plan.dims.map((d) =>
      d.kind === 'list' ? { path: d.path, values: d.values } : { path: d.path, from: d.from.toFixed(), to: d.to.toFixed(), log: d.log },
    ),
    counts: {
      trials: search.length,
      ok: search.filter((r) => r.status === 'ok').length,
      rejected: search.filter((r) => r.status === 'rejected').length,
      failed: search.filter((r) => r.status === 'failed').length,
    },
    best,
    folds: s.folds.map((f) => ({
      index: f.fold.index,
      inSample: f.fold.inSample ?? null,
      outOfSample: f.fold.outOfSample ?? null,
      best: f.best ? toReport(f.best) : null,
      outOfSampleResult: f.oos ? toReport(f.oos) : null,
    })),
    trials: all.sort((a, b) => a.fold - b.fold || (a.phase === b.phase ? a.index - b.index : a.phase === 'search' ? -1 : 1)).map(toReport),
  };
}
