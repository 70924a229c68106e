/**
 * `bot parity --fit`: the fill model's parameters (fill-model-params.ts) that best reproduce the session's live
 * fills. They shape the optimistic lane, so each candidate is one replay of that lane; the pessimistic lane has no
 * parameter (it is the bound of proven counterparties).
 *
 * The loss minimised: the base amount the candidate's fills do not share with the live ones, over the live amount,
 *   loss = (missed amount + extra amount) / live amount
 * with fills matched as everywhere in parity (same strategy, side and price within one snapshot, nearest first).
 * 0 = every live fill reproduced and nothing more; a lane that fills nothing scores 1. Ties go to the smaller mean
 * fill-time error, then to the candidate nearest the defaults (the model unchanged unless the data says otherwise).
 *
 * The grid: queueAhead and decreaseTrades each in {0, 0.25, 0.5, 0.75, 1} (25 replays); on a recording that carries
 * every trade decreaseTrades is not used by the model, so only queueAhead is searched (5 replays).
 */
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { DEFAULT_FILL_MODEL, isDefaultFillModel, type FillModelParams } from '../../src/fill-model/fill-model-params.js';
import { matchFills, timeErrors } from './match.js';
import { replaySession, type ReplayPlan } from './replay-session.js';
import type { Session } from './session.js';

export const FIT_GRID = [0, 0.25, 0.5, 0.75, 1] as const;

export const FIT_LOSS = '(missed amount + extra amount) / live amount of the optimistic lane, fills matched within one snapshot';

export interface FitCandidate {
  readonly queueAhead: number;
  readonly decreaseTrades: number;
  readonly loss: number;
  readonly matched: number;
  readonly missed: number;
  readonly extra: number;
  /** Mean |fill-time error| of the matched fills, ms (null without any). */
  readonly meanAbsMs: number | null;
}

export interface FitResult {
  readonly loss: string;
  readonly lane: 'optimistic';
  readonly liveFills: number;
  readonly candidates: readonly FitCandidate[];
  readonly best: FillModelParams;
  readonly bestLoss: number;
  /** The loss of the defaults (the model unfitted). */
  readonly defaultLoss: number;
}

const distanceFromDefaults = (c: FillModelParams): number =>
  Math.abs(c.queueAhead - DEFAULT_FILL_MODEL.queueAhead) + Math.abs(c.decreaseTrades - DEFAULT_FILL_MODEL.decreaseTrades);

/** Orders candidates best first (the loss, then the time error, then nearness to the defaults). */
export function byFit(a: FitCandidate, b: FitCandidate): number {
  return a.loss - b.loss || (a.meanAbsMs ?? Infinity) - (b.meanAbsMs ?? Infinity) || distanceFromDefaults(a) - distanceFromDefaults(b);
}

export async function fitFillModel(o: {
  readonly plan: ReplayPlan;
  readonly live: Session;
  readonly windowMs: number;
  readonly hasTrades: boolean;
  /** Called after each candidate (progress). */
  readonly onCandidate?: (done: number, total: number) => void;
}): Promise<FitResult> {
  const live = o.live;
  const liveAmount = live.fills.reduce((a, f) => a.add(f.amount), D(0));
  if (liveAmount.isZero()) throw new ConfigError('parity --fit: the session has no live fill, so there is nothing to fit the fill model to');
  const shares = o.hasTrades ? [DEFAULT_FILL_MODEL.decreaseTrades] : FIT_GRID;
  const grid = FIT_GRID.flatMap((queueAhead) => shares.map((decreaseTrades) => ({ queueAhead, decreaseTrades })));
  const candidates: FitCandidate[] = [];
  for (const params of grid) {
    const [lane] = await replaySession(o.plan, ['optimistic'], params);
    const m = matchFills(live.fills, lane!.session.fills, o.windowMs);
    candidates.push({
      ...params,
      loss: m.missedAmount.add(m.extraAmount).div(liveAmount).toNumber(),
      matched: m.pairs.length,
      missed: m.missed.length,
      extra: m.extra.length,
      meanAbsMs: timeErrors(m.pairs, o.windowMs).meanAbsMs,
    });
    o.onCandidate?.(candidates.length, grid.length);
  }
  const ranked = [...candidates].sort(byFit);
  const best = ranked[0]!;
  const defaults = candidates.find((c) => isDefaultFillModel(c))!;
  return {
    loss: FIT_LOSS,
    lane: 'optimistic',
    liveFills: live.fills.length,
    candidates,
    best: { queueAhead: best.queueAhead, decreaseTrades: best.decreaseTrades },
    bestLoss: best.loss,
    defaultLoss: defaults.loss,
  };
}

/** The `fillModel:` block to paste into a backtest config or a sweep file, with where it came from. */
export function fillModelYaml(fit: FitResult, journal: string): string {
  return [
    `# bot parity --fit on ${journal} (${fit.liveFills} live fills)`,
    `# loss ${fit.loss}: ${fit.bestLoss.toFixed(4)} (defaults: ${fit.defaultLoss.toFixed(4)})`,
    'fillModel:',
    `  queueAhead: ${fit.best.queueAhead}`,
    `  decreaseTrades: ${fit.best.decreaseTrades}`,
    '',
  ].join('\n');
}
