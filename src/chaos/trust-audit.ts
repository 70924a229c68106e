import { D, ZERO, type Decimal } from '../model/decimal.js';
import type { JournalRecord } from '../engine/journal-records.js';
import { replayJournal } from '../engine/journal-replay.js';
import type { MidHistory } from './malformed-check.js';
import type { VenueRecords } from './venue-records.js';

/**
 * The audit columns of issue 23 (what a daemon that believed a lying venue would get wrong), computed for every chaos
 * mode from the journal, the venue's TRUE records (read in-process) and what the harness saw while the run went on:
 * - overfills: journal fills of one order (each deal id once, as a restart replays them) summing above its amount;
 * - phantom-cancels: an order the journal ends as canceled that the venue shows filled, or one with a venue deal after
 *   the journal first said canceled (the daemon took it for gone while it still traded);
 * - band-breaches: a submission priced more than its strategy's maxDeviation from the true mid of its moment;
 * - stale-fills: a deal on an order placed before a frozen book or outage of its market, made once the book had been
 *   unusable for longer than the daemon's staleAfterMs plus a margin (by then its quotes should have been cancelled).
 */
export interface TrustContext {
  /** The true mids the harness sampled from the sim while the run went on. */
  readonly mids?: MidHistory;
  /** Strategy id → its `risk.maxDeviation` (a fraction); a strategy not listed has the default. */
  readonly maxDeviation?: Readonly<Record<string, number>>;
  /** The episodes in which a market's book was frozen or out (undefined market = every market). */
  readonly staleEpisodes?: readonly StaleEpisode[];
  /** The daemon's `polling.staleAfterMs`. */
  readonly staleAfterMs?: number;
  /** Time allowed after staleAfterMs for the cancels to reach the venue. Default STALE_MARGIN_MS. */
  readonly marginMs?: number;
}

export interface StaleEpisode {
  readonly kind: string;
  readonly market?: string | undefined;
  readonly startMs: number;
  readonly endMs: number;
}

/** The daemon's price band when its config sets none (`risk.maxDeviation`, issue 23). */
export const DEFAULT_MAX_DEVIATION = 0.05;
/** Cancelling a daemon's quotes is one request each through its executor: 2 s covers a few dozen on a loaded machine. */
export const STALE_MARGIN_MS = 2_000;

export interface TrustFindings {
  readonly overfills: string[];
  readonly phantomCancels: string[];
  readonly bandBreaches: string[];
  readonly staleFills: string[];
}

export function auditTrust(records: readonly JournalRecord[], venue: VenueRecords, trust: TrustContext = {}): TrustFindings {
  return {
    overfills: overfills(records, venue),
    phantomCancels: phantomCancels(records, venue),
    bandBreaches: trust.mids === undefined ? [] : bandBreaches(records, trust.mids, trust.maxDeviation ?? {}),
    staleFills:
      trust.staleEpisodes === undefined || trust.staleAfterMs === undefined
        ? []
        : staleFills(venue, trust.staleEpisodes, trust.staleAfterMs, trust.marginMs ?? STALE_MARGIN_MS),
  };
}

export function overfills(records: readonly JournalRecord[], venue: VenueRecords): string[] {
  const amount = new Map<string, Decimal>();
  for (const r of records) if (r.type === 'submit' || r.type === 'adopt') amount.set(r.clientOrderId, D(r.order.amount));
  // the venue's amount is the truth when it has the order
  for (const o of [...venue.open, ...venue.finished]) amount.set(o.clientOrderId, o.amount);
  const seen = new Set<number>();
  const filled = new Map<string, { sum: Decimal; deals: number[] }>();
  for (const r of records) {
    if (r.type !== 'fill' || seen.has(r.deal.id)) continue;
    seen.add(r.deal.id);
    const f = filled.get(r.deal.clientOrderId) ?? { sum: ZERO, deals: [] };
    f.sum = f.sum.plus(D(r.deal.amount));
    f.deals.push(r.deal.id);
    filled.set(r.deal.clientOrderId, f);
  }
  const out: string[] = [];
  for (const [id, f] of filled) {
    const of = amount.get(id);
    if (of !== undefined && f.sum.gt(of)) out.push(`${id}: journal fills ${f.sum.toFixed()} above its amount ${of.toFixed()} (deals ${f.deals.join(', ')})`);
  }
  return out;
}

export function phantomCancels(records: readonly JournalRecord[], venue: VenueRecords): string[] {
  const cancelledAt = new Map<string, number>();
  for (const r of records) if (r.type === 'outcome' && r.state === 'canceled' && !cancelledAt.has(r.clientOrderId)) cancelledAt.set(r.clientOrderId, r.t);
  const state = replayJournal(records);
  const venueOrder = new Map([...venue.open, ...venue.finished].map((o) => [o.clientOrderId, o]));
  const out: string[] = [];
  for (const [id, t] of cancelledAt) {
    const v = venueOrder.get(id);
    if (state.orders.get(id)?.state === 'canceled' && v !== undefined && v.left.isZero() && v.dealStock.gt(0)) {
      out.push(`${id}: canceled in the journal, filled on the venue (order ${v.orderId})`);
      continue;
    }
    const late = venue.deals.find((d) => d.clientOrderId === id && d.time * 1000 > t);
    if (late !== undefined) out.push(`${id}: venue deal ${late.id} ${Math.round(late.time * 1000 - t)} ms after the journal said canceled`);
  }
  return out;
}

export function bandBreaches(records: readonly JournalRecord[], mids: MidHistory, maxDeviation: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
  for (const r of records) {
    if (r.type !== 'submit') continue;
    const mid = mids.at(r.order.market, r.t);
    if (mid === undefined || mid.isZero()) continue;
    const band = maxDeviation[r.strategyId] ?? DEFAULT_MAX_DEVIATION;
    const off = D(r.order.price).div(mid).minus(1).abs();
    if (off.gt(band)) {
      out.push(
        `${r.clientOrderId} ${r.order.side} @ ${r.order.price} while the true mid was ${mid.toFixed()} (${off.times(100).toDecimalPlaces(3).toFixed()} % off, band ${D(band).times(100).toFixed()} %)`,
      );
    }
  }
  return out;
}

export function staleFills(venue: VenueRecords, episodes: readonly StaleEpisode[], staleAfterMs: number, marginMs: number): string[] {
  const placedMs = new Map([...venue.open, ...venue.finished].map((o) => [o.orderId, o.timestamp * 1000]));
  const out: string[] = [];
  for (const e of episodes) {
    const from = e.startMs + staleAfterMs + marginMs;
    if (e.endMs <= from) continue;
    for (const d of venue.deals) {
      const at = d.time * 1000;
      const placed = placedMs.get(d.orderId);
      if ((e.market !== undefined && d.market !== e.market) || at < from || at >= e.endMs || placed === undefined || placed >= e.startMs) continue;
      out.push(
        `deal ${d.id} (${d.clientOrderId}) ${Math.round(at - e.startMs)} ms into a ${e.kind} of ${d.market} lasting ${e.endMs - e.startMs} ms, on an order placed before it`,
      );
    }
  }
  return out;
}
