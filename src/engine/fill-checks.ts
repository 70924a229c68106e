import { dadd } from '../model/decimal-small.js';
import type { Deal } from '../model/order.js';
import { dealDefects } from '../venue/plausible.js';
import { dealAgainstOrder } from './answer-check.js';
import type { EngineEvent } from './events.js';
import { HeldDeals } from './held-deals.js';
import type { Journal } from './journal.js';
import type { AnomalyKind } from './journal-records.js';
import type { OrderTracker, TrackedOrder } from './order-tracker.js';

export interface FillChecksOptions {
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly now: () => number;
  readonly emit: (e: EngineEvent) => void;
  /** Asks for a reconcile of the order (not awaited: it may be running already, and is then joined). */
  readonly reconcile: (clientOrderId: string) => void;
}

/**
 * Every deal is checked against its order before it is journalled, booked or shown (a venue's answer is evidence, not
 * truth). A deal with a non-positive amount or price or a negative fee is malformed: never journalled and never marked
 * seen, so the true record under the same id is still taken when it comes. A deal that does not fit its order (see
 * `misfit`) is held (HeldDeals) and the order reconciled through the venue's history; `settle` then releases what the
 * records cover and rejects, once the order is final, what they never will. Deals of orders the engine does not track
 * (another client's, or pruned long ago) pass through as before: there is nothing to check them against.
 */
export class FillChecks {
  readonly held = new HeldDeals();
  /**
   * Malformed deals listed and not yet listed true: their defects (reported again only when they change), and the order
   * and time they name, while they shadow other deals of that order at that time (see `shadowOf`).
   */
  private readonly malformed = new Map<number, { detail: string; clientOrderId: string; time: number; since: number }>();
  /**
   * Per order, the deals applied to it (see `twinOf`: their time, amount and price); the oldest orders forgotten first.
   * The deals themselves, not their signatures: a signature (two Decimals formatted) is then made only for a deal at
   * the very time of one booked before, not twice for every deal.
   */
  private readonly booked = new Map<string, Deal[]>();

  constructor(private readonly o: FillChecksOptions) {}

  /** True when the deal may be applied now; otherwise it was reported, and held or dropped. */
  admit(deal: Deal): boolean {
    const defects = dealDefects(deal);
    if (defects.length > 0) {
      const detail = defects.join('; ');
      const known = this.malformed.get(deal.id);
      if (known?.detail !== detail) {
        if (this.malformed.size >= 10_000) this.malformed.delete(this.malformed.keys().next().value!);
        this.malformed.set(deal.id, { detail, clientOrderId: deal.clientOrderId, time: deal.time, since: known?.since ?? this.o.now() });
        const order = this.o.tracker.get(deal.clientOrderId);
        this.report(
          'malformed-deal',
          'ERR_DEAL_MALFORMED',
          order,
          deal,
          `deal ${deal.id} of ${deal.clientOrderId || `order ${deal.orderId}`} is malformed and ignored: ${detail}`,
        );
      }
      return false;
    }
    this.malformed.delete(deal.id);
    const order = deal.clientOrderId !== '' ? this.o.tracker.get(deal.clientOrderId) : undefined;
    if (order === undefined) return true;
    const why = misfit(order, deal) ?? this.twinOf(order, deal) ?? this.shadowOf(deal);
    if (why === undefined) return true;
    if (this.held.hold(deal, why, this.o.now())) {
      this.report('deal-held', 'ERR_DEAL_HELD', order, deal, `deal ${deal.id} of ${order.clientOrderId} held back, the order is reconciled: ${why}`);
    }
    this.o.reconcile(order.clientOrderId);
    return false;
  }

  /** A deal was applied to its order (journalled, booked): remembered for `twinOf`. */
  applied(deal: Deal): void {
    if (deal.clientOrderId === '') return;
    const deals = this.booked.get(deal.clientOrderId);
    if (deals !== undefined) {
      deals.push(deal);
      return;
    }
    if (this.booked.size >= 10_000) this.booked.delete(this.booked.keys().next().value!);
    this.booked.set(deal.clientOrderId, [deal]);
  }

  /**
   * A deal with the very time, amount and price of a deal already applied to the same order: the same fill reported
   * again under a new id, most likely (one order does not trade twice in the same microsecond for the same amount
   * and price but rarely). Held until a venue record of the order, read after it, shows that much executed.
   */
  private twinOf(order: TrackedOrder, deal: Deal): string | undefined {
    if (!hasTwin(this.booked.get(order.clientOrderId), deal)) return undefined;
    return `it repeats the time, amount and price of a deal already booked for the order (the same fill under a new id?)`;
  }

  /**
   * A deal of an order at the very time of another deal of that order that is listed malformed (under another id): the
   * malformed one is a real execution whose true record may come, and this one may be the same fill reported again
   * under a new id, which would then have taken its place. Held until the malformed one is listed true (this one is
   * then judged as its twin), or for SHADOW_MS (its record may stay broken: the order's executed amount decides).
   */
  private shadowOf(deal: Deal): string | undefined {
    for (const [id, m] of this.malformed) {
      if (id !== deal.id && m.clientOrderId === deal.clientOrderId && m.time === deal.time && this.o.now() - m.since < SHADOW_MS) {
        return `deal ${id} of the order at the same time is listed malformed: waiting for its true record`;
      }
    }
    return undefined;
  }

  /** True while a deal of the order is listed malformed (for at most SHADOW_MS): its true record may still come. */
  private awaitsTrueRecord(clientOrderId: string): boolean {
    for (const m of this.malformed.values()) {
      if (m.clientOrderId === clientOrderId && this.o.now() - m.since < SHADOW_MS) return true;
    }
    return false;
  }

  /**
   * After a reconcile of the order, with the executed amount the venue's records gave (`executed`, read after the deals
   * were held; undefined when none said): each held deal that now fits is released through `apply` (oldest first) -
   * a twin only when `executed` covers it; one that cannot fit a FINAL order (the venue gave its executed amount, or it
   * is filled) is rejected for good and its id marked seen; the rest stay held until the order's next reconcile.
   */
  settle(clientOrderId: string, apply: (deal: Deal) => void, executed?: TrackedOrder['dealt']): void {
    if (!this.held.has(clientOrderId)) return;
    const order = this.o.tracker.get(clientOrderId);
    for (const h of this.held.of(clientOrderId)) {
      if (order === undefined || this.o.tracker.hasSeenDeal(h.deal.id)) {
        this.held.drop(h.deal);
        continue;
      }
      // Shadowed by a malformed deal of the order at its time: wait for that one's true record (or SHADOW_MS), final or
      // not. Judging it now could reject a true fill (two real fills at one instant) or keep a twin in place of its original.
      if (this.shadowOf(h.deal) !== undefined) continue;
      const twin = this.twinOf(order, h.deal);
      // A twin is released only on the executed amount; while another deal of the order is listed malformed, that amount
      // holds the malformed one's true fill too, and a twin released on it would take that fill's place.
      if (twin !== undefined && this.awaitsTrueRecord(clientOrderId)) continue;
      const covered = executed !== undefined && order.dealt.plus(h.deal.amount).lte(executed);
      const why = misfit(order, h.deal) ?? (twin !== undefined && !covered ? twin : undefined);
      if (why === undefined) {
        this.held.drop(h.deal);
        this.report('deal-released', undefined, order, h.deal, `deal ${h.deal.id} of ${clientOrderId} released: the venue's records now account for it`);
        apply(h.deal);
      } else if (order.finalDealt !== undefined || order.state === 'filled') {
        this.held.drop(h.deal);
        this.o.tracker.markDealsSeen([h.deal.id]);
        this.report('deal-rejected', 'ERR_DEAL_REJECTED', order, h.deal, `deal ${h.deal.id} of ${clientOrderId} rejected: ${why}`);
      }
    }
  }

  /**
   * An open-orders record of the order, requested after its last deal was applied, that shows LESS executed than the
   * deals journalled for it: the deals (or the record) are wrong. It cannot be taken back from the journal, so it is
   * reported (anomaly record, error event, alert) and the order reconciled through its history.
   */
  checkExecuted(order: TrackedOrder, venueDealt: TrackedOrder['dealt'], requestedAt: number): void {
    if (order.lastDealAt === undefined || requestedAt <= order.lastDealAt || !venueDealt.lt(order.dealt)) return;
    this.report(
      'fills-disagree',
      'ERR_FILLS_DISAGREE',
      order,
      undefined,
      `the venue reports ${venueDealt.toFixed()} executed for ${order.clientOrderId}, its journalled deals ${order.dealt.toFixed()}`,
    );
    this.o.reconcile(order.clientOrderId);
  }

  private report(kind: AnomalyKind, code: string | undefined, order: TrackedOrder | undefined, deal: Deal | undefined, detail: string): void {
    const { journal, now, emit } = this.o;
    journal.append({
      t: now(),
      type: 'anomaly',
      kind,
      strategyId: order?.strategyId ?? null,
      ...(deal !== undefined && deal.clientOrderId !== ''
        ? { clientOrderId: deal.clientOrderId }
        : order !== undefined
          ? { clientOrderId: order.clientOrderId }
          : {}),
      ...(deal !== undefined ? { dealId: deal.id } : {}),
      detail,
    });
    if (code !== undefined) emit({ type: 'error', at: now(), ...(order !== undefined ? { strategyId: order.strategyId } : {}), code, message: detail });
  }
}

/**
 * Why a deal cannot be booked against its order now: it contradicts the order (see dealAgainstOrder), or it would take
 * the order's filled amount above its amount, or above the executed amount a final venue record gave.
 */
export function misfit(order: TrackedOrder, deal: Deal): string | undefined {
  const problems = dealAgainstOrder(order, deal);
  if (problems.length > 0) return problems.join('; ');
  const after = dadd(order.dealt, deal.amount);
  if (after.gt(order.amount)) return `it would take the order's filled amount to ${after.toFixed()} of ${order.amount.toFixed()}`;
  if (order.finalDealt !== undefined && after.gt(order.finalDealt)) {
    return `it would take the order's filled amount to ${after.toFixed()}, above the ${order.finalDealt.toFixed()} the venue reports executed`;
  }
  return undefined;
}

/** How long a malformed deal shadows the other deals of its order at its time (see FillChecks.shadowOf). */
export const SHADOW_MS = 30_000;

/**
 * True when a booked deal has the deal's signature: its time first (a number, the one test most deals stop at; equal
 * numbers print alike and, NaN aside, unequal ones do not), then the signature strings themselves, so the answer is
 * the set membership of the signature it always was.
 */
export function hasTwin(booked: readonly Deal[] | undefined, deal: Deal): boolean {
  if (booked === undefined) return false;
  // a NaN time (never parsed from the wire) still compares by its signature's text, as the set did
  const nan = Number.isNaN(deal.time);
  for (const b of booked) if ((b.time === deal.time || nan) && signature(b) === signature(deal)) return true;
  return false;
}

/** The deal's time, amount and price as one key. */
function signature(deal: Deal): string {
  return `${deal.time}|${deal.amount.toFixed()}|${deal.price.toFixed()}`;
}
