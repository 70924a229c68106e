/**
 * The objective and the constraints of a sweep, read from a trial's figures.
 *   objective: { figure: pessimistic.tradingPnl, direction: maximize }   # lane.figure; the lane defaults to pessimistic
 *   constraints: ["maxDrawdown <= 200", "fills >= 20", "optimistic.fills > 0"]
 * A figure is any lane metric of the backtest report (tradingPnl, equityChange, returnFraction, fees, volume,
 * fills, maxDrawdown, sharpe, sortino, turnover, ...). Pessimistic by default: the lower edge of the fill band,
 * so a sweep never rewards parameters that only pay off under optimistic fills.
 */
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';

export type Lanes = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface FigureRef {
  readonly lane: string;
  readonly figure: string;
}

export interface Constraint extends FigureRef {
  readonly text: string;
  readonly op: '<=' | '>=' | '<' | '>' | '==';
  readonly bound: string;
}

const LANES = ['pessimistic', 'optimistic'];

export function parseFigure(text: string, defaultLane = 'pessimistic'): FigureRef {
  const m = /^\s*(?:(pessimistic|optimistic)\.)?([A-Za-z][A-Za-z0-9]*)\s*$/.exec(text);
  if (m === null) throw new ConfigError(`figure '${text}': expected [pessimistic.|optimistic.]name, e.g. pessimistic.tradingPnl`);
  return { lane: m[1] ?? defaultLane, figure: m[2]! };
}

export function parseConstraint(text: string, defaultLane: string): Constraint {
  const m = /^\s*(.+?)\s*(<=|>=|==|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (m === null) throw new ConfigError(`constraint '${text}': expected <figure> <op> <number>, e.g. maxDrawdown <= 200`);
  return { ...parseFigure(m[1]!, defaultLane), text: text.trim(), op: m[2] as Constraint['op'], bound: m[3]! };
}

/** The figure as a number (for ranking and charts; exact decimals stay in the trial's figures), or undefined. */
export function figureValue(lanes: Lanes, ref: FigureRef): number | undefined {
  const v = lanes[ref.lane]?.[ref.figure];
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return undefined;
}

/** Constraints the figures break (a missing figure breaks its constraint). Compared exactly with Decimal. */
export function brokenConstraints(lanes: Lanes, constraints: readonly Constraint[]): string[] {
  const out: string[] = [];
  for (const c of constraints) {
    const v = lanes[c.lane]?.[c.figure];
    if (typeof v !== 'number' && typeof v !== 'string') {
      out.push(`${c.text} (no such figure)`);
      continue;
    }
    const cmp = D(v).cmp(D(c.bound));
    const ok = c.op === '<=' ? cmp <= 0 : c.op === '>=' ? cmp >= 0 : c.op === '<' ? cmp < 0 : c.op === '>' ? cmp > 0 : cmp === 0;
    if (!ok) out.push(c.text);
  }
  return out;
}

export function checkLane(ref: FigureRef, available: readonly string[]): void {
  if (!LANES.includes(ref.lane)) throw new ConfigError(`figure lane '${ref.lane}': expected pessimistic or optimistic`);
  if (!available.includes(ref.lane)) throw new ConfigError(`objective uses the ${ref.lane} lane but the base config's fills are [${available.join(', ')}]`);
}
