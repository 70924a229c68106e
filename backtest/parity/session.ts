/**
 * A trading session as its journal tells it: the orders placed (with the decision that asked for each), the fills
 * (the venue's deal times), the starting balances and the session's span. The daemon's journal and a replay lane's
 * journal are read by the same function, so the live session and its replays are compared in one shape.
 *
 * A journal may hold several runs of the daemon (each `start` record begins one); the session is the LAST run,
 * from its `start` record to its `stop` record (or the journal's last record when the daemon died).
 */
import { D, type Decimal } from '../../src/model/decimal.js';
import type { DealRole, Side } from '../../src/model/order.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';

export interface SessionOrder {
  readonly clientOrderId: string;
  readonly strategyId: string;
  /** Engine time of the `submit` record (written just before the request is sent), ms. */
  readonly t: number;
  /** Engine time of the intent that asked for the order (the decision), ms; `t` when no intent record is found. */
  readonly decidedAt: number;
  readonly side: Side;
  /** The journal's spelling: `limit` or `stop limit`. */
  readonly type: string;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly tag: string | undefined;
  /** The venue's first answer (`outcome` record): accepted (any state but rejected) or not; undefined = no answer. */
  readonly accepted: boolean | undefined;
  /** Engine time of that answer, ms. */
  readonly answeredAt: number | undefined;
}

/** One fill of an order at one venue time: the deals of the same order, time, price and role merged. */
export interface SessionFill {
  /** The venue's deal time, ms. */
  readonly t: number;
  readonly strategyId: string | null;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly role: DealRole;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly fee: Decimal;
  /** Deals merged into this fill (a venue may fill one order against several counterparties at once). */
  readonly deals: number;
}

export interface Session {
  readonly startT: number;
  readonly endT: number;
  /** Runs in the journal (the session is the last one). */
  readonly runs: number;
  readonly strategies: readonly string[];
  /** Trade balances (available + freeze) of the run's first `balance` record; undefined when it has none. */
  readonly balances: Readonly<Record<string, Decimal>> | undefined;
  readonly orders: readonly SessionOrder[];
  /** In venue time order. */
  readonly fills: readonly SessionFill[];
  /** Median time from a submit to the venue's answer, ms (a replay's latency); undefined without answers. */
  readonly roundTripMs: number | undefined;
}

type Rec<T extends JournalRecord['type']> = Extract<JournalRecord, { type: T }>;

/** Times of the place intents not yet followed by their submit, per strategy, side and tag (the latest last). */
type PendingIntents = Map<string, number[]>;
const intentKey = (strategyId: string, side: unknown, tag: unknown): string => `${strategyId}|${String(side)}|${typeof tag === 'string' ? tag : ''}`;

/** The last run of a journal as a Session; `strategies` keeps only those strategy ids (default: every one). */
export function sessionFromJournal(records: readonly JournalRecord[], o: { readonly strategies?: readonly string[] } = {}): Session {
  let first = 0;
  let runs = 0;
  records.forEach((r, i) => {
    if (r.type === 'start') {
      first = i;
      runs += 1;
    }
  });
  const run = records.slice(first);
  const head = run[0];
  const start = head?.type === 'start' ? head : undefined;
  const startT = run[0]?.t ?? 0;
  const stop = run.find((r) => r.type === 'stop');
  const endT = stop?.t ?? run[run.length - 1]?.t ?? startT;
  const keep = o.strategies === undefined ? undefined : new Set(o.strategies);
  const wanted = (id: string | null): boolean => keep === undefined || (id !== null && keep.has(id));

  let balances: Record<string, Decimal> | undefined;
  const intents: PendingIntents = new Map();
  const orders = new Map<string, { order: Omit<SessionOrder, 'accepted' | 'answeredAt'>; accepted?: boolean; answeredAt?: number }>();
  const deals = new Map<number, Rec<'fill'>>();
  for (const r of run) {
    switch (r.type) {
      case 'balance':
        balances ??= Object.fromEntries(Object.entries(r.balances).map(([k, v]) => [k, D(v.available).add(D(v.freeze))]));
        break;
      case 'intent': {
        const kind = r.intent['kind'];
        if (kind === 'place-limit' || kind === 'place-stop-limit') {
          const key = intentKey(r.strategyId, r.intent['side'], r.intent['tag']);
          const list = intents.get(key);
          if (list === undefined) intents.set(key, [r.t]);
          else list.push(r.t);
        }
        break;
      }
      case 'submit': {
        if (!wanted(r.strategyId)) break;
        // the decision: the latest place intent of the strategy with the order's side and tag (the submit follows it
        // at once unless the executor queued it; an intent the gate refused is left behind, a later one being nearer)
        const decidedAt = intents.get(intentKey(r.strategyId, r.order.side, r.tag))?.pop();
        orders.set(r.clientOrderId, {
          order: {
            clientOrderId: r.clientOrderId,
            strategyId: r.strategyId,
            t: r.t,
            decidedAt: decidedAt ?? r.t,
            side: r.order.side,
            type: r.order.type,
            price: D(r.order.price),
            amount: D(r.order.amount),
            tag: r.tag,
          },
        });
        break;
      }
      case 'outcome': {
        const entry = orders.get(r.clientOrderId);
        if (entry !== undefined && entry.accepted === undefined && r.state !== 'unknown') {
          entry.accepted = r.state !== 'rejected';
          entry.answeredAt = r.t;
        }
        break;
      }
      case 'fill':
        // a deal is journalled once; one from before the session's start belongs to an earlier run
        if (wanted(r.strategyId) && r.deal.time * 1000 >= startT && !deals.has(r.deal.id)) deals.set(r.deal.id, r);
        break;
      default:
        break;
    }
  }
  const list = [...orders.values()].map((e) => ({ ...e.order, accepted: e.accepted, answeredAt: e.answeredAt }));
  const trips = list.flatMap((x) => (x.answeredAt === undefined ? [] : [x.answeredAt - x.t])).sort((a, b) => a - b);
  return {
    startT,
    endT,
    runs,
    strategies: start?.strategies.filter((s) => wanted(s)) ?? [],
    balances,
    orders: list,
    fills: mergeDeals([...deals.values()]),
    roundTripMs: trips.length === 0 ? undefined : trips[Math.floor(trips.length / 2)],
  };
}

/** Deals of one order at one time, price and role become one fill (ordered by venue time, then journal order). */
function mergeDeals(records: readonly Rec<'fill'>[]): SessionFill[] {
  const byKey = new Map<string, { fill: SessionFill; order: number }>();
  records.forEach((r, order) => {
    const d = r.deal;
    const t = Math.round(d.time * 1000);
    const key = `${d.clientOrderId}|${d.orderId}|${t}|${d.price}|${d.role}`;
    const seen = byKey.get(key);
    if (seen === undefined) {
      const fill: SessionFill = {
        t,
        strategyId: r.strategyId,
        clientOrderId: d.clientOrderId,
        side: d.side,
        role: d.role,
        price: D(d.price),
        amount: D(d.amount),
        fee: D(d.fee),
        deals: 1,
      };
      byKey.set(key, { fill, order });
    } else {
      const f = seen.fill;
      seen.fill = { ...f, amount: f.amount.add(D(d.amount)), fee: f.fee.add(D(d.fee)), deals: f.deals + 1 };
    }
  });
  return [...byKey.values()].sort((a, b) => a.fill.t - b.fill.t || a.order - b.order).map((x) => x.fill);
}
