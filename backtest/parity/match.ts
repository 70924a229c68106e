/**
 * Setting a replay's fills (and orders) beside the live ones. Ids mean nothing across venues (each numbers its own
 * orders and deals, and the replay's engine makes its own client order ids), so things are matched by what they
 * are: the same strategy, side and price (fills), or the same strategy, side, type, price and amount (orders),
 * within a time window (one snapshot: the resolution of the recording the replay runs on). Pairs are taken
 * nearest in time first, then nearest in amount; each live and each replayed item is used at most once.
 */
import { ZERO, dmin, type Decimal } from '../../src/model/decimal.js';
import type { SessionFill, SessionOrder } from './session.js';

export interface Pair {
  readonly live: number;
  readonly replay: number;
  /** Replay time minus live time, ms. */
  readonly dtMs: number;
}

export interface FillMatch {
  readonly pairs: readonly Pair[];
  /** Live fills the replay did not make (indices into the live fills). */
  readonly missed: readonly number[];
  /** Replay fills live did not make (indices into the replay fills). */
  readonly extra: readonly number[];
  readonly liveAmount: Decimal;
  readonly replayAmount: Decimal;
  /** Σ over pairs of the smaller amount: what both sides filled. */
  readonly matchedAmount: Decimal;
  /** Live amount not matched (unmatched fills and the shortfall of matched ones). */
  readonly missedAmount: Decimal;
  /** Replay amount not matched. */
  readonly extraAmount: Decimal;
}

const sum = (xs: readonly Decimal[]): Decimal => xs.reduce((a, b) => a.add(b), ZERO);

/** Greedy matching of `live` against `replay` items with equal `key`, |Δt| <= windowMs, nearest first. */
function greedy<T>(
  live: readonly T[],
  replay: readonly T[],
  key: (x: T) => string,
  time: (x: T) => number,
  amount: (x: T) => Decimal,
  windowMs: number,
): Pair[] {
  // per key, the replay's items in time order, so each live item looks only at those within its window
  const byKey = new Map<string, number[]>();
  replay.forEach((x, j) => {
    const k = key(x);
    const list = byKey.get(k);
    if (list === undefined) byKey.set(k, [j]);
    else list.push(j);
  });
  for (const list of byKey.values()) list.sort((a, b) => time(replay[a]!) - time(replay[b]!) || a - b);
  const candidates: { i: number; j: number; dt: number; da: Decimal }[] = [];
  live.forEach((x, i) => {
    const list = byKey.get(key(x));
    if (list === undefined) return;
    const t = time(x);
    for (let k = firstAtOrAfter(list, (j) => time(replay[j]!), t - windowMs); k < list.length; k++) {
      const j = list[k]!;
      const dt = time(replay[j]!) - t;
      if (dt > windowMs) break;
      candidates.push({ i, j, dt, da: amount(replay[j]!).sub(amount(x)).abs() });
    }
  });
  candidates.sort((a, b) => Math.abs(a.dt) - Math.abs(b.dt) || a.da.cmp(b.da) || a.i - b.i || a.j - b.j);
  const usedLive = new Set<number>();
  const usedReplay = new Set<number>();
  const pairs: Pair[] = [];
  for (const c of candidates) {
    if (usedLive.has(c.i) || usedReplay.has(c.j)) continue;
    usedLive.add(c.i);
    usedReplay.add(c.j);
    pairs.push({ live: c.i, replay: c.j, dtMs: c.dt });
  }
  return pairs.sort((a, b) => a.live - b.live);
}

/** The first position in `list` (ascending by `time`) whose time is at least `t`. */
function firstAtOrAfter(list: readonly number[], time: (j: number) => number, t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (time(list[mid]!) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const fillKey = (f: SessionFill): string => `${f.strategyId ?? ''}|${f.side}|${f.price.toFixed()}`;

export function matchFills(live: readonly SessionFill[], replay: readonly SessionFill[], windowMs: number): FillMatch {
  const pairs = greedy(
    live,
    replay,
    fillKey,
    (f) => f.t,
    (f) => f.amount,
    windowMs,
  );
  const liveUsed = new Set(pairs.map((p) => p.live));
  const replayUsed = new Set(pairs.map((p) => p.replay));
  const liveAmount = sum(live.map((f) => f.amount));
  const replayAmount = sum(replay.map((f) => f.amount));
  const matchedAmount = sum(pairs.map((p) => dmin(live[p.live]!.amount, replay[p.replay]!.amount)));
  return {
    pairs,
    missed: live.flatMap((_, i) => (liveUsed.has(i) ? [] : [i])),
    extra: replay.flatMap((_, j) => (replayUsed.has(j) ? [] : [j])),
    liveAmount,
    replayAmount,
    matchedAmount,
    missedAmount: liveAmount.sub(matchedAmount),
    extraAmount: replayAmount.sub(matchedAmount),
  };
}

const orderKey = (o: SessionOrder): string => `${o.strategyId}|${o.side}|${o.type}|${o.price.toFixed()}|${o.amount.toFixed()}`;

/** Live orders against replayed ones: placed at the same price and amount within the window. */
export function matchOrders(live: readonly SessionOrder[], replay: readonly SessionOrder[], windowMs: number): readonly Pair[] {
  return greedy(
    live,
    replay,
    orderKey,
    (o) => o.t,
    (o) => o.amount,
    windowMs,
  );
}

export interface TimeErrors {
  /** Matched fills. */
  readonly n: number;
  /** Replay minus live fill time, ms: quantiles of the signed error and the mean of its absolute value. */
  readonly minMs: number | null;
  readonly p10Ms: number | null;
  readonly medianMs: number | null;
  readonly p90Ms: number | null;
  readonly maxMs: number | null;
  readonly meanAbsMs: number | null;
  /** Matched fills by error in whole snapshots (-2 = two or more early ... 2 = two or more late). */
  readonly bySnapshots: Readonly<Record<'-2' | '-1' | '0' | '1' | '2', number>>;
}

/** The distribution of the fill-time error of matched pairs, in ms and in snapshots of `intervalMs`. */
export function timeErrors(pairs: readonly Pair[], intervalMs: number): TimeErrors {
  const dts = pairs.map((p) => p.dtMs).sort((a, b) => a - b);
  const q = (f: number): number | null => (dts.length === 0 ? null : dts[Math.min(dts.length - 1, Math.floor(f * dts.length))]!);
  const bySnapshots = { '-2': 0, '-1': 0, '0': 0, '1': 0, '2': 0 };
  for (const dt of dts) {
    const k = Math.max(-2, Math.min(2, Math.round(dt / intervalMs)));
    bySnapshots[String(k) as keyof typeof bySnapshots] += 1;
  }
  return {
    n: dts.length,
    minMs: dts[0] ?? null,
    p10Ms: q(0.1),
    medianMs: q(0.5),
    p90Ms: q(0.9),
    maxMs: dts[dts.length - 1] ?? null,
    meanAbsMs: dts.length === 0 ? null : dts.reduce((a, b) => a + Math.abs(b), 0) / dts.length,
    bySnapshots,
  };
}
