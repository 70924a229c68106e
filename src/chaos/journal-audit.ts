import { D, ZERO, type Decimal } from '../model/decimal.js';
import type { Order } from '../model/order.js';
import type { JournalDeal, JournalRecord } from '../engine/journal-records.js';
import { replayJournal } from '../engine/journal-replay.js';
import { auditTrust, type TrustContext } from './trust-audit.js';
import type { VenueRecords } from './venue-records.js';

/** The loss columns of one account. Each list holds one line per finding (ids, never secrets). */
export interface AccountAudit {
  readonly account: string;
  /** Order submissions in the journal (`submit` records). */
  readonly orders: number;
  readonly duplicates: readonly string[];
  readonly lost: readonly string[];
  readonly unknownLeft: readonly string[];
  readonly fillsMissing: readonly string[];
  readonly balanceDiff: readonly string[];
  /** The columns of a venue that lies (trust-audit.ts). */
  readonly overfills: readonly string[];
  readonly phantomCancels: readonly string[];
  readonly bandBreaches: readonly string[];
  readonly staleFills: readonly string[];
}

/**
 * Compares a daemon's journal with the venue's records of its account, after the daemon stopped cleanly:
 * - duplicates: one client order id on two venue orders or in two submissions; two live grid orders at one
 *   level (seen while running, `liveDuplicates`);
 * - lost: a venue order the journal does not know, or knows as never placed (rejected); an order whose final
 *   state in the journal contradicts the venue's (live in one, finished in the other; filled vs not);
 * - unknown-left: an order the journal leaves pending or unknown;
 * - fills-missing: a venue deal not in the journal, a journal fill the venue does not have, or one whose
 *   figures differ;
 * - balance-diff: per asset, start + the journal's fills − fees against the venue's total, and the journal's
 *   last balance snapshot against the venue's available and frozen amounts, to the last decimal;
 * - overfills, phantom-cancels, band-breaches, stale-fills: see trust-audit.ts (the last two need what the harness
 *   saw while the run went on, `trust`; without it they stay empty).
 */
export function auditAccount(
  account: string,
  records: readonly JournalRecord[],
  venue: VenueRecords,
  liveDuplicates: Iterable<string> = [],
  trust: TrustContext = {},
): AccountAudit {
  const duplicates: string[] = [...liveDuplicates].map((d) => `two live grid orders at ${d}`);
  const lost: string[] = [];
  const unknownLeft: string[] = [];
  const fillsMissing: string[] = [];
  const balanceDiff: string[] = [];

  const submits = new Map<string, number>();
  for (const r of records) if (r.type === 'submit') submits.set(r.clientOrderId, (submits.get(r.clientOrderId) ?? 0) + 1);
  for (const [id, n] of submits) if (n > 1) duplicates.push(`client order id ${id} submitted ${n} times`);

  const venueById = new Map<string, Order[]>();
  for (const o of [...venue.open, ...venue.finished]) {
    const list = venueById.get(o.clientOrderId) ?? [];
    list.push(o);
    venueById.set(o.clientOrderId, list);
  }
  for (const [id, list] of venueById)
    if (list.length > 1) duplicates.push(`client order id ${id} on ${list.length} venue orders (${list.map((o) => o.orderId).join(', ')})`);

  const state = replayJournal(records);
  const openIds = new Set(venue.open.map((o) => o.clientOrderId));
  for (const [id, list] of venueById) {
    const j = state.orders.get(id);
    const v = list[0]!;
    if (j === undefined) {
      lost.push(`venue order ${v.orderId} (${id}) is not in the journal`);
      continue;
    }
    // at most one finding per order: the first that applies
    const liveInJournal = j.state === 'open' || j.state === 'partially-filled';
    const filledOnVenue = v.left.isZero() && v.dealStock.gt(0);
    const open = openIds.has(id);
    const finding =
      j.state === 'rejected'
        ? 'is in the journal as never placed'
        : open && !liveInJournal && j.state !== 'unknown' && j.state !== 'pending'
          ? `is open, the journal says ${j.state}`
          : !open && liveInJournal
            ? `is finished, the journal says ${j.state}`
            : !open && (j.state === 'filled') !== filledOnVenue
              ? `${filledOnVenue ? 'filled' : 'not filled'} on the venue, ${j.state} in the journal`
              : undefined;
    if (finding !== undefined) lost.push(`venue order ${v.orderId} (${id}) ${finding}`);
  }
  for (const o of state.orders.values()) {
    if (o.state === 'unknown' || o.state === 'pending') unknownLeft.push(`${o.clientOrderId} left ${o.state}`);
  }

  const journalDeals = new Map<number, JournalDeal>();
  for (const r of records) if (r.type === 'fill') journalDeals.set(r.deal.id, r.deal);
  const venueDeals = new Map(venue.deals.map((d) => [d.id, d]));
  for (const d of venueDeals.values()) {
    const j = journalDeals.get(d.id);
    if (j === undefined) fillsMissing.push(`venue deal ${d.id} (${d.clientOrderId}) not in the journal`);
    else if (
      j.amount !== d.amount.toFixed() ||
      j.price !== d.price.toFixed() ||
      j.fee !== d.fee.toFixed() ||
      j.deal !== d.deal.toFixed() ||
      j.side !== d.side ||
      j.clientOrderId !== d.clientOrderId
    ) {
      fillsMissing.push(`deal ${d.id}: journal ${j.amount}@${j.price} fee ${j.fee}, venue ${d.amount.toFixed()}@${d.price.toFixed()} fee ${d.fee.toFixed()}`);
    }
  }
  for (const id of journalDeals.keys()) if (!venueDeals.has(id)) fillsMissing.push(`journal fill ${id} is not a venue deal`);

  const expected = new Map<string, Decimal>(Object.entries(venue.initial).map(([t, b]) => [t, b.available.plus(b.freeze)]));
  const add = (t: string, v: Decimal): void => {
    expected.set(t, (expected.get(t) ?? ZERO).plus(v));
  };
  for (const d of journalDeals.values()) {
    const [stock, money] = d.market.split('_') as [string, string];
    const sign = d.side === 'buy' ? 1 : -1;
    add(stock, D(d.amount).times(sign));
    add(money, D(d.deal).times(-sign).minus(D(d.fee)));
  }
  const lastSnapshot = [...records].reverse().find((r) => r.type === 'balance');
  const tickers = new Set([...Object.keys(venue.balances), ...expected.keys()]);
  for (const t of tickers) {
    const v = venue.balances[t];
    const total = v ? v.available.plus(v.freeze) : ZERO;
    const want = expected.get(t) ?? ZERO;
    if (!total.eq(want)) balanceDiff.push(`${t}: venue ${total.toFixed()}, start + journal fills ${want.toFixed()}`);
    const snap = lastSnapshot?.type === 'balance' ? lastSnapshot.balances[t] : undefined;
    if (v && (snap === undefined || snap.available !== v.available.toFixed() || snap.freeze !== v.freeze.toFixed())) {
      balanceDiff.push(
        `${t}: venue ${v.available.toFixed()}/${v.freeze.toFixed()}, journal's last snapshot ${snap ? `${snap.available}/${snap.freeze}` : 'none'}`,
      );
    }
  }

  return {
    account,
    orders: [...submits.values()].reduce((a, b) => a + b, 0),
    duplicates,
    lost,
    unknownLeft,
    fillsMissing,
    balanceDiff,
    ...auditTrust(records, venue, trust),
  };
}
