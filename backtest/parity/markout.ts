/**
 * Execution quality of each live fill, read off the recorded mids: the price against the mid when the strategy
 * decided (its intent) and when the fill happened, and the markouts, the mid 1 s, 10 s and 60 s after the fill
 * against the fill's price. Every figure is signed so that positive is good for the account: a buy below the mid,
 * a sell above it, a mid that moved our way afterwards. Values are money per unit of base (Decimal, as strings in
 * the report); basis points (of the fill price) are numbers for the charts.
 */
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Side } from '../../src/model/order.js';
import type { BookMids } from './book-mids.js';
import type { SessionFill, SessionOrder } from './session.js';

export const MARKOUT_HORIZONS = [
  { name: '1s', ms: 1_000 },
  { name: '10s', ms: 10_000 },
  { name: '60s', ms: 60_000 },
] as const;
export type HorizonName = (typeof MARKOUT_HORIZONS)[number]['name'];

/** A price against a mid: the mid, the signed edge (money per base unit) and the edge in bps of the price. */
export interface Edge {
  readonly mid: string;
  readonly value: string;
  readonly bps: number;
}

export interface FillQuality {
  readonly t: number;
  readonly strategyId: string | null;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly role: string;
  readonly price: string;
  readonly amount: string;
  /** The decision's time (the intent of the fill's order), ms; null when the order is not in the session. */
  readonly decidedAt: number | null;
  readonly atDecision: Edge | null;
  readonly atFill: Edge | null;
  /** Null where the recording does not reach that far. */
  readonly markouts: Readonly<Record<HorizonName, Edge | null>>;
}

export interface QualitySummary {
  readonly fills: number;
  /** Per measure: fills measured, their mean in bps, and the money it amounts to (Σ edge × amount). */
  readonly measures: Readonly<Record<'atDecision' | 'atFill' | HorizonName, { readonly n: number; readonly meanBps: number | null; readonly money: string }>>;
}

const BPS = 10_000;

function edge(side: Side, price: Decimal, mid: Decimal | undefined): Edge | null {
  if (mid === undefined) return null;
  const value = side === 'buy' ? mid.sub(price) : price.sub(mid);
  return { mid: mid.toFixed(), value: value.toFixed(), bps: value.div(price).toNumber() * BPS };
}

export function fillQuality(fills: readonly SessionFill[], orders: readonly SessionOrder[], mids: BookMids): FillQuality[] {
  const byId = new Map(orders.map((o) => [o.clientOrderId, o]));
  return fills.map((f) => {
    const decidedAt = byId.get(f.clientOrderId)?.decidedAt ?? null;
    const markouts = Object.fromEntries(MARKOUT_HORIZONS.map((h) => [h.name, edge(f.side, f.price, mids.at(f.t + h.ms))])) as Record<HorizonName, Edge | null>;
    return {
      t: f.t,
      strategyId: f.strategyId,
      clientOrderId: f.clientOrderId,
      side: f.side,
      role: f.role,
      price: f.price.toFixed(),
      amount: f.amount.toFixed(),
      decidedAt,
      atDecision: decidedAt === null ? null : edge(f.side, f.price, mids.at(decidedAt)),
      atFill: edge(f.side, f.price, mids.at(f.t)),
      markouts,
    };
  });
}

export function summariseQuality(q: readonly FillQuality[]): QualitySummary {
  const measure = (get: (x: FillQuality) => Edge | null) => {
    let n = 0;
    let bps = 0;
    let money = ZERO;
    for (const x of q) {
      const e = get(x);
      if (e === null) continue;
      n += 1;
      bps += e.bps;
      money = money.add(D(e.value).mul(D(x.amount)));
    }
    return { n, meanBps: n === 0 ? null : bps / n, money: money.toFixed() };
  };
  return {
    fills: q.length,
    measures: {
      atDecision: measure((x) => x.atDecision),
      atFill: measure((x) => x.atFill),
      '1s': measure((x) => x.markouts['1s']),
      '10s': measure((x) => x.markouts['10s']),
      '60s': measure((x) => x.markouts['60s']),
    },
  };
}
