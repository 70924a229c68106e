/**
 * # The fill model for polled snapshots
 *
 * A backtest on polled order books never sees the orders that traded between two snapshots, so it
 * cannot know exactly when a resting order of ours would have filled. This model states two bounds and
 * the backtest runs BOTH, side by side on the same data (two lanes, each with its own venue, engine and
 * strategy instance), so the report shows a band instead of one line.
 *
 * Notation for a resting BUY at price P (a sell is the mirror image): `L` what is left of it; `Q` the
 * estimated quantity queued ahead of it at P; between the previous snapshot s0 and the next s1:
 * `D0`, `D1` the bid quantity displayed at P; `X1` the ask quantity in s1 at prices <= P (sellers
 * resting at or through our price: they found no bid at P in the real book, but ours would have been
 * there); when the recording has trades, `Vp` the volume of sell-aggressor trades at exactly P and
 * `Vt` at prices below P (a seller who traded through P must have consumed every bid at P, ours too).
 *
 * - On arrival (after the modelled latency) an order that crosses the current snapshot takes
 *   liquidity at once, at the displayed levels' prices, up to their displayed quantities (minus what
 *   our own earlier takers used from the same snapshot); a post-only order that would take is
 *   rejected as the venue does; ioc cancels the remainder; the remainder of a plain limit rests.
 *   A resting order starts with `Q = D` (the quantity displayed at its price when it arrives: FIFO,
 *   we join the back of the queue; 0 when it improves the best price).
 * - Pessimistic: a quantity decrease at P is a cancellation BEHIND us (no queue progress), and only a
 *   proven counterparty fills us: fill = min(L, max(0, X1 - X0) + Vt + max(0, Vp - Q)), where X0 is the
 *   through-quantity already counted at the previous snapshot (the same resting sellers are not counted
 *   twice). Then Q := min(max(0, Q - Vp), D1) (people ahead who vanished cancelled), and Q := 0 while
 *   the book is at or through P.
 * - Optimistic: the book at or through P (X1 > 0) or a trade through P (Vt > 0) fills all of L.
 *   Otherwise every decrease at P is a trade at the FRONT of the queue: with `dec = max(0, D0 - D1)`,
 *   fill = min(L, max(0, dec - Q)) and Q := max(0, Q - dec). When the recording has trades, they
 *   tighten this: decreases not explained by trades are cancellations (assumed ahead of us, optimistic),
 *   and only traded volume fills: Q' = max(0, Q - max(0, dec - Vp)); fill = min(L, max(0, Vp - Q'));
 *   Q := max(0, Q' - Vp). Finally Q := min(Q, D1).
 * - The optimistic lane's two parameters (fill-model-params.ts, the `fillModel:` block; `bot parity --fit` tunes
 *   them to a recorded session): `queueAhead` a, the share of D ahead of us on arrival (Q = a x D; default 1, the
 *   back of the queue), and `decreaseTrades` b, the share of a decrease that traded when the recording does not
 *   carry every trade, the rest cancellations ahead of us: fill = min(L, max(0, b x dec - Q)),
 *   Q := max(0, Q - dec) (default 1: every decrease a trade, as above).
 * - Partial fills: both bounds fill partially; fills are rounded DOWN to the market's amount step
 *   (the venue fills whole lots), at the order's price, as maker.
 * - Recorded trades tighten the band from both sides: they raise the pessimistic bound (proven
 *   counterparties) and cap the optimistic one (no trade, no fill, unless the book moved through P).
 *
 * Limits of the model (stated, not hidden): our own fills do not remove liquidity from later snapshots
 * (the recorded book is the market without us); hidden and iceberg orders are invisible; the queue
 * estimate assumes strict FIFO price-time priority at the venue.
 */
import { ZERO, type Decimal } from '../model/decimal.js';
import { gt, minOf as dmin } from '../model/decimal-compare.js';
import type { Side } from '../model/order.js';
import type { RecordedSnapshot } from '../recording/recording-format.js';
import { sameSideQty, throughQty } from './book-queries.js';

export type FillAssumption = 'optimistic' | 'pessimistic';
export const FILL_ASSUMPTIONS: readonly FillAssumption[] = ['optimistic', 'pessimistic'];

/** A recorded trade with its price in ticks. */
export interface TickTrade {
  readonly t: number;
  readonly priceTicks: number;
  readonly amount: Decimal;
  /** Aggressor side. */
  readonly takerSide: Side;
}

/** The model's memory of one resting order. */
export interface QueueState {
  /** Estimated quantity ahead of the order at its price. */
  readonly queueAhead: Decimal;
  /** Through-quantity (X) seen at the previous snapshot, counted already (pessimistic). */
  readonly throughSeen: Decimal;
}

export interface FillStepInput {
  readonly side: Side;
  readonly priceTicks: number;
  readonly left: Decimal;
  readonly state: QueueState;
  /** The snapshot the state was last evaluated against, and the new one. */
  readonly before: RecordedSnapshot;
  readonly after: RecordedSnapshot;
  /** Recorded trades after the order arrived, up to `after.t`. */
  readonly trades: readonly TickTrade[];
  /** True when the recording carries trades at all (an empty list then means "no trade happened"). */
  readonly hasTrades: boolean;
  readonly assumption: FillAssumption;
  /** Optimistic lane: share of a decrease at the price that traded (fill-model-params.ts); undefined = 1. */
  readonly decreaseTrades?: Decimal | undefined;
}

export interface FillStep {
  /** Base amount filled in this step (not yet rounded to the amount step). */
  readonly fill: Decimal;
  readonly state: QueueState;
}

/**
 * State of an order that starts resting while `s` is the current snapshot. `queueAhead` is the share of the
 * displayed quantity ahead of it (fill-model-params.ts; optimistic lane only); undefined = 1, the back of the queue.
 */
export function initialQueue(s: RecordedSnapshot, side: Side, priceTicks: number, queueAhead?: Decimal): QueueState {
  const displayed = sameSideQty(s, side, priceTicks);
  return { queueAhead: queueAhead === undefined || displayed === ZERO ? displayed : displayed.mul(queueAhead), throughSeen: throughQty(s, side, priceTicks) };
}

const NO_EVIDENCE = { atPrice: ZERO, through: ZERO } as const;

/** Sums the trades that are evidence for an order: at its price, and through it. */
function tradeEvidence(side: Side, priceTicks: number, trades: readonly TickTrade[]): { atPrice: Decimal; through: Decimal } {
  // most snapshots come without trades (and recordings without any): no sums to make
  if (trades.length === 0) return NO_EVIDENCE;
  let atPrice = ZERO;
  let through = ZERO;
  const aggressor: Side = side === 'buy' ? 'sell' : 'buy';
  for (const tr of trades) {
    if (tr.takerSide !== aggressor) continue;
    if (tr.priceTicks === priceTicks) atPrice = atPrice.add(tr.amount);
    else if (side === 'buy' ? tr.priceTicks < priceTicks : tr.priceTicks > priceTicks) through = through.add(tr.amount);
  }
  return { atPrice, through };
}

const max0 = (d: Decimal): Decimal => (d.isNegative() ? ZERO : d);

export function fillStep(input: FillStepInput): FillStep {
  const { side, priceTicks, left, state, before, after, trades, hasTrades, assumption } = input;
  // The displayed quantity at the price. The pessimistic bound reads it only to cap a queue ahead, and a queue that is
  // the ZERO constant (an order at the front: the usual state) stays ZERO under any amount not below zero: a snapshot
  // that vouches for its amounts is asked only when the queue is not ZERO (below), others as always, first.
  const eager = assumption !== 'pessimistic' || !after.nonNegativeAmounts;
  const d1Eager = eager ? sameSideQty(after, side, priceTicks) : undefined;
  const x1 = throughQty(after, side, priceTicks);
  const { atPrice: vp, through: vt } = tradeEvidence(side, priceTicks, trades);
  let q = state.queueAhead;
  let fill: Decimal;

  // The `=== ZERO` tests below are fast paths (this runs for every resting order on every snapshot): the queries
  // return the ZERO constant when nothing is there, and skipping arithmetic with zero yields the same values.
  if (assumption === 'pessimistic') {
    let fromQueue = ZERO;
    if (vp !== ZERO) {
      fromQueue = max0(vp.sub(q));
      q = max0(q.sub(vp));
    }
    let fromThrough = x1 === ZERO && state.throughSeen === ZERO ? ZERO : max0(x1.sub(state.throughSeen));
    if (vt !== ZERO) fromThrough = fromThrough.add(vt);
    fill = dmin(left, fromQueue === ZERO ? fromThrough : fromQueue.add(fromThrough));
    // an order at the front of its queue with no level at its price (the usual step): min(0, 0) is 0 itself; with a
    // level there, min(ZERO, d1) is ZERO for any d1 >= 0, so a vouched snapshot is not asked
    if (q !== ZERO) q = dmin(q, d1Eager ?? sameSideQty(after, side, priceTicks));
    else if (d1Eager !== undefined && d1Eager !== ZERO) q = dmin(q, d1Eager);
    if (x1 !== ZERO && gt(x1, ZERO)) q = ZERO;
    return { fill, state: stateOf(state, q, x1) };
  }

  const d1 = d1Eager!;
  if (gt(x1, ZERO) || gt(vt, ZERO)) {
    return { fill: left, state: { queueAhead: ZERO, throughSeen: x1 } };
  }
  const d0 = sameSideQty(before, side, priceTicks);
  const dec = max0(d0.sub(d1));
  if (hasTrades) {
    const q1 = max0(q.sub(max0(dec.sub(vp))));
    fill = dmin(left, max0(vp.sub(q1)));
    q = max0(q1.sub(vp));
  } else {
    const traded = input.decreaseTrades === undefined || dec === ZERO ? dec : dec.mul(input.decreaseTrades);
    fill = dmin(left, max0(traded.sub(q)));
    q = max0(q.sub(dec));
  }
  return { fill, state: stateOf(state, dmin(q, d1), x1) };
}

/** The new queue state, or the old one when nothing in it changed (a resting order's usual step). */
function stateOf(old: QueueState, queueAhead: Decimal, throughSeen: Decimal): QueueState {
  return old.queueAhead === queueAhead && old.throughSeen === throughSeen ? old : { queueAhead, throughSeen };
}
