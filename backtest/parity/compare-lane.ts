/**
 * One replay lane set beside the live session: its fills matched against the live ones (matched, missed, extra,
 * the fill-time error), its orders against the live orders, and its PnL at the session's mark.
 */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import { matchFills, matchOrders, timeErrors, type FillMatch, type TimeErrors } from './match.js';
import type { ReplayedLane } from './replay-session.js';
import { sessionPnl, type SessionPnl } from './session-pnl.js';
import type { Session, SessionFill, SessionOrder } from './session.js';

export interface LaneParity {
  readonly assumption: string;
  readonly fills: {
    readonly live: number;
    readonly replay: number;
    readonly matched: number;
    /** Live fills this lane did not make. */
    readonly missed: number;
    /** Fills of this lane that live did not make. */
    readonly extra: number;
    /** matched / live (null without live fills). */
    readonly matchedShare: number | null;
    /** Base amounts: live, replay, matched (the smaller of each pair), missed, extra. */
    readonly amounts: { readonly live: string; readonly replay: string; readonly matched: string; readonly missed: string; readonly extra: string };
  };
  readonly timeErrors: TimeErrors;
  /** Live orders the lane placed too (same strategy, side, type, price, amount within the window), of all live orders. */
  readonly orders: { readonly live: number; readonly replay: number; readonly matched: number };
  readonly pnl: SessionPnl;
  readonly errors: readonly string[];
}

/** Per live order: what live and each lane did with it. */
export interface OrderRow {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly t: number;
  readonly side: string;
  readonly type: string;
  readonly price: string;
  readonly amount: string;
  readonly accepted: boolean | null;
  readonly filled: string;
  readonly firstFillT: number | null;
  readonly lanes: Readonly<
    Record<string, { readonly placed: boolean; readonly placedDtMs: number | null; readonly filled: string | null; readonly firstFillT: number | null }>
  >;
}

export interface LaneComparison {
  readonly lane: LaneParity;
  readonly fillMatch: FillMatch;
  /** Live order index -> the lane's order matched to it. */
  readonly orderMatch: ReadonlyMap<number, { readonly order: SessionOrder; readonly dtMs: number }>;
}

export function compareLane(live: Session, replayed: ReplayedLane, windowMs: number, mark: Decimal | undefined): LaneComparison {
  const replay = replayed.session;
  const fm = matchFills(live.fills, replay.fills, windowMs);
  const om = matchOrders(live.orders, replay.orders, windowMs);
  const n = live.fills.length;
  return {
    lane: {
      assumption: replayed.assumption,
      fills: {
        live: n,
        replay: replay.fills.length,
        matched: fm.pairs.length,
        missed: fm.missed.length,
        extra: fm.extra.length,
        matchedShare: n === 0 ? null : fm.pairs.length / n,
        amounts: {
          live: fm.liveAmount.toFixed(),
          replay: fm.replayAmount.toFixed(),
          matched: fm.matchedAmount.toFixed(),
          missed: fm.missedAmount.toFixed(),
          extra: fm.extraAmount.toFixed(),
        },
      },
      timeErrors: timeErrors(fm.pairs, windowMs),
      orders: { live: live.orders.length, replay: replay.orders.length, matched: om.length },
      pnl: sessionPnl(replay.fills, mark),
      errors: replayed.errors,
    },
    fillMatch: fm,
    orderMatch: new Map(om.map((p) => [p.live, { order: replay.orders[p.replay]!, dtMs: p.dtMs }])),
  };
}

function fillsOf(fills: readonly SessionFill[]): Map<string, { amount: Decimal; first: number }> {
  const out = new Map<string, { amount: Decimal; first: number }>();
  for (const f of fills) {
    const x = out.get(f.clientOrderId);
    if (x === undefined) out.set(f.clientOrderId, { amount: f.amount, first: f.t });
    else x.amount = x.amount.add(f.amount);
  }
  return out;
}

/** The per-order table: every live order, with each lane's matching order (placed? when? filled how much, when?). */
export function orderRows(live: Session, lanes: readonly { readonly replayed: ReplayedLane; readonly comparison: LaneComparison }[]): OrderRow[] {
  const liveFills = fillsOf(live.fills);
  const laneFills = lanes.map((l) => fillsOf(l.replayed.session.fills));
  return live.orders.map((o, i) => {
    const lf = liveFills.get(o.clientOrderId);
    const perLane: OrderRow['lanes'] = Object.fromEntries(
      lanes.map((l, k) => {
        const m = l.comparison.orderMatch.get(i);
        const rf = m === undefined ? undefined : laneFills[k]!.get(m.order.clientOrderId);
        return [
          l.replayed.assumption,
          {
            placed: m !== undefined,
            placedDtMs: m?.dtMs ?? null,
            filled: m === undefined ? null : (rf?.amount ?? ZERO).toFixed(),
            firstFillT: rf?.first ?? null,
          },
        ];
      }),
    );
    return {
      clientOrderId: o.clientOrderId,
      strategyId: o.strategyId,
      t: o.t,
      side: o.side,
      type: o.type,
      price: o.price.toFixed(),
      amount: o.amount.toFixed(),
      accepted: o.accepted ?? null,
      filled: (lf?.amount ?? ZERO).toFixed(),
      firstFillT: lf?.first ?? null,
      lanes: perLane,
    };
  });
}
