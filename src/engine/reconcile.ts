import type { SchedulerLike, Subscription } from 'rxjs';
import { fmt, type Decimal } from '../model/decimal.js';
import type { Deal, Order } from '../model/order.js';
import type { OrderState } from '../strategy/context.js';
import { backoffDelay, type BackoffOptions } from '../model/backoff.js';
import { InnerValidationError } from '../venue/errors.js';
import { dealDefects } from '../venue/plausible.js';
import type { TradingApi } from '../venue/trading-api.js';
import { orderAnswerProblems } from './answer-check.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import { isLive, type OrderTracker, type TrackedOrder } from './order-tracker.js';
import { dealtBy, fetchDealsOf, ImplausibleAnswerError, provenByRecords, venueFacts, type VenueFacts } from './venue-facts.js';

/** Venue code of "Unexecuted order was not found." on cancel. */
export const CANCEL_NOT_FOUND = 2;

export interface ReconcilerOptions {
  readonly api: TradingApi;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly emit: (e: EngineEvent) => void;
  /** Routes deals found while reconciling through the normal fill path (checks, ledger, journal, fills$), once each. */
  readonly applyDeal: (deal: Deal) => void;
  /** The order has deals held back by the fill checks: its history record is wanted even when its deals look complete. */
  readonly hasHeldDeals?: (clientOrderId: string) => boolean;
  /**
   * Called after each look-up that settled what it could, with the executed amount the venue's records gave (an open,
   * history or cancel record read after any deal was held), so held deals are released or rejected against it.
   */
  readonly settleHeld?: (clientOrderId: string, executed: Decimal | undefined) => void;
  /** Retry delays after a failed reconcile (model/backoff.ts; default the venue's: 1 s doubling to 30 s). */
  readonly retry?: BackoffOptions;
  /**
   * How long after an order's outcome became unknown (or after a restart found it in flight) its absence from
   * the venue may be taken for "never placed". A request the client gave up on may still be on its way or queued at
   * the venue and be acted on later; the venue refuses a request whose nonce is more than 5 s old (nonceWindow,
   * exchange-facts §1), so after that window and a margin it can no longer appear. Before, the order stays
   * unknown (live to its strategy, so nothing is placed in its stead) and is looked up again at the window's end.
   * Default 7000.
   */
  readonly notPlacedAfterMs?: number;
}

/** NONCE_WINDOW_MS of the venue (5 s) plus 2 s for clock skew and the request's own travel. */
export const NOT_PLACED_AFTER_MS = 7_000;

export interface ReconcileOptions {
  /** Wait out the not-placed window instead of looking again later (the stop sequence). */
  readonly wait?: boolean;
  /**
   * Settle an order the venue does not show by a cancel of ours (default true): its answer, the order or "not found",
   * is the positive answer absence is not. Without it (a stop that leaves orders resting), such an order stays unknown.
   */
  readonly probe?: boolean;
}

/**
 * Settles orders whose fate is in doubt (a submit or cancel without a usable answer, an order the open-orders list
 * stopped showing, a journalled order after a restart, an order with deals held back) from the venue's records.
 * NEVER resubmits: the strategy sees the proven state on orders$ and decides again.
 *
 * Absence is not proof (a lagging replica hides orders that rest): an order is settled only by a positive answer,
 * checked against what we asked (see answer-check.ts): it is open; its executed-orders history record says how it
 * finished; its deals account for its whole amount; or a cancel of ours answers with the order (cancelled now) or
 * "not found" (not resting: then its deals, read after that answer, decide between filled, cancelled and, for an
 * order never seen on the venue and past its not-placed window, never placed). Until then it is UNKNOWN: live to its
 * strategy and counted in full against its limits. Failed or implausible look-ups retry on the scheduler with backoff.
 */
export class Reconciler {
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, Subscription>();
  /** When each unconfirmed order was first looked up: the start of its not-placed window. */
  private readonly unknownSince = new Map<string, number>();
  private stopped = false;

  constructor(private readonly o: ReconcilerOptions) {}

  get pending(): number {
    return this.running.size + this.timers.size;
  }

  /**
   * Reconciles now (or joins a reconcile already running for that id). An unconfirmed order the venue does not
   * show is probed only once its not-placed window has passed; before, it is looked up again at the window's end,
   * or, with `wait` (the stop sequence), waited for.
   */
  async reconcile(clientOrderId: string, attempt = 0, opts: ReconcileOptions = {}): Promise<void> {
    const joined = this.running.get(clientOrderId);
    if (joined !== undefined) {
      await joined;
      // the stop sequence must see it settled, not merely looked at
      const o = this.o.tracker.get(clientOrderId);
      if (opts.wait && o && (o.state === 'pending' || o.state === 'unknown')) await this.reconcile(clientOrderId, attempt, opts);
      return;
    }
    const run = this.run(clientOrderId, attempt, opts.wait === true, opts.probe !== false);
    this.running.set(clientOrderId, run);
    try {
      await run;
    } finally {
      this.running.delete(clientOrderId);
    }
  }

  private async run(clientOrderId: string, attempt: number, wait: boolean, probe: boolean): Promise<void> {
    const order = this.o.tracker.get(clientOrderId);
    if (!order) return;
    if (isUnconfirmed(order) && !this.unknownSince.has(clientOrderId)) this.unknownSince.set(clientOrderId, this.o.now());
    try {
      const facts = await this.lookUp(order, attempt, wait);
      if (facts === undefined) return; // looked up again later
      this.unknownSince.delete(clientOrderId);
      for (const d of facts.deals) this.o.applyDeal(d);
      let state = provenByRecords(order.amount, facts);
      let record: Order | undefined = facts.open ?? facts.finished;
      if (facts.finished !== undefined) this.o.tracker.setFinalDealt(clientOrderId, facts.finished.dealStock);
      if (state === undefined && isLive(order.state) && probe) ({ state, record } = await this.probe(order));
      if (state !== undefined) this.o.tracker.move(clientOrderId, state, record);
      this.o.settleHeld?.(clientOrderId, record?.dealStock);
      const after = this.o.tracker.get(clientOrderId) ?? order;
      // a journal that drops its records is spared making this one (it formats what is left)
      if (this.o.journal.discards !== true)
        this.o.journal.append({
          t: this.o.now(),
          type: 'outcome',
          strategyId: order.strategyId,
          clientOrderId,
          state: after.state,
          ...(after.orderId !== undefined ? { orderId: after.orderId } : {}),
          left: fmt(this.o.tracker.left(after)),
          reason: 'reconciled',
        });
      this.o.emit({ type: 'reconciled', at: this.o.now(), strategyId: order.strategyId, clientOrderId, state: after.state });
    } catch (error) {
      // `attempt` counts the failures before this one
      const delay = backoffDelay(attempt + 1, this.o.retry);
      this.o.emit({
        type: 'error',
        at: this.o.now(),
        strategyId: order.strategyId,
        code: (error as { code?: string }).code ?? 'ERR_RECONCILE',
        message: `reconcile ${clientOrderId} failed, retry in ${delay} ms: ${(error as Error).message}`,
      });
      if (wait) throw error;
      this.later(clientOrderId, delay, attempt + 1);
    }
  }

  /**
   * The venue's facts about the order, looked at again while they cannot be conclusive: a look-up that found nothing
   * but began before the order was first seen on the venue (e.g. by the open-orders poll while it was on its way: a
   * chaos-harness finding, where such stale facts settled a live order), and an unconfirmed order inside its
   * not-placed window. Undefined when the look-up was rescheduled instead of waited for.
   */
  private async lookUp(order: TrackedOrder, attempt: number, wait: boolean): Promise<VenueFacts | undefined> {
    const history = this.o.hasHeldDeals?.(order.clientOrderId) === true;
    let lookedAt = this.o.now();
    let facts = await venueFacts(this.o.api, order, { history });
    for (;;) {
      if (nothingOf(facts) && order.confirmedAt !== undefined && order.confirmedAt >= lookedAt) {
        lookedAt = this.o.now();
        facts = await venueFacts(this.o.api, order, { history });
        continue;
      }
      const pause = this.notPlacedWait(order, facts);
      if (pause <= 0) return facts;
      if (!wait) {
        this.later(order.clientOrderId, pause, attempt);
        return undefined;
      }
      await new Promise<void>((resolve) => this.o.scheduler.schedule(() => resolve(), pause));
      lookedAt = this.o.now();
      facts = await venueFacts(this.o.api, order, { history });
    }
  }

  /**
   * A cancel of ours for an order the venue's records do not settle. Its answer is the positive one: the order itself
   * (it was resting: cancelled now, its `dealStock` final), or "not found" (it does not rest: the deals read after
   * that answer decide). Journalled as a cancel, like any other.
   */
  private async probe(order: TrackedOrder): Promise<{ state: OrderState; record?: Order }> {
    const { api, tracker, journal, now } = this.o;
    const id = order.clientOrderId;
    const cancelledBefore = order.cancelSent === true;
    if (order.state !== 'unknown' && order.state !== 'pending') {
      tracker.move(id, 'unknown');
      const reason = 'not on the venue: no open record, no history record, deals short of the amount; a cancel of ours settles it';
      journal.append({ t: now(), type: 'outcome', strategyId: order.strategyId, clientOrderId: id, state: 'unknown', reason });
      this.o.emit({ type: 'unknown', at: now(), strategyId: order.strategyId, clientOrderId: id, message: reason });
    }
    const marked = tracker.requestCancel(id);
    journal.append({ t: now(), type: 'cancel', strategyId: order.strategyId, clientOrderId: id });
    tracker.markCancelSent(id);
    this.o.emit({ type: 'submitted', at: now(), strategyId: order.strategyId, clientOrderId: id, kind: 'cancel' });
    try {
      const record = await api.cancel(
        order.orderId !== undefined ? { market: order.market, orderId: order.orderId } : { market: order.market, clientOrderId: id },
      );
      const problems = orderAnswerProblems(order, record);
      if (problems.length > 0) throw new ImplausibleAnswerError(`cancel answer for ${id}`, problems);
      tracker.setFinalDealt(id, record.dealStock);
      return { state: record.left.isZero() && record.dealStock.gt(0) ? 'filled' : 'canceled', record };
    } catch (error) {
      if (!(error instanceof InnerValidationError && error.venueCode === CANCEL_NOT_FOUND)) throw error;
    } finally {
      if (marked) tracker.clearCancel(id);
    }
    // Not resting. Its deals, read after that answer, cover every execution there will be.
    const deals = await fetchDealsOf(api, order.market, id);
    for (const d of deals) this.o.applyDeal(d);
    if (dealtBy(deals).gte(order.amount)) return { state: 'filled' };
    const everOnVenue = order.confirmedAt !== undefined || order.orderId !== undefined || dealtBy(deals).gt(0) || order.dealt.gt(0);
    // Never seen and past its window: never placed, unless an earlier cancel of ours may be what removed it.
    return { state: everOnVenue || cancelledBefore ? 'canceled' : 'rejected' };
  }

  /**
   * Milliseconds to wait before "nothing on the venue" may be acted on for this order, or 0 when the facts are
   * conclusive (it is open, it has deals, it was confirmed once, or the window has passed).
   */
  private notPlacedWait(order: TrackedOrder, facts: VenueFacts): number {
    const since = this.unknownSince.get(order.clientOrderId);
    if (since === undefined || !nothingOf(facts) || !isUnconfirmed(order)) return 0;
    return Math.max(0, since + (this.o.notPlacedAfterMs ?? NOT_PLACED_AFTER_MS) - this.o.now());
  }

  /** Schedules a reconcile on the engine's scheduler; nothing once stopped. */
  later(clientOrderId: string, delayMs: number, attempt = 0): void {
    if (this.stopped || this.timers.has(clientOrderId)) return;
    const sub = this.o.scheduler.schedule(() => {
      this.timers.delete(clientOrderId);
      void this.reconcile(clientOrderId, attempt);
    }, delayMs);
    this.timers.set(clientOrderId, sub);
  }

  /**
   * Cancels the scheduled look-ups, and no later one is scheduled: a look-up still in flight that fails after this
   * (the client is closed next) would otherwise reschedule itself with backoff for ever and keep a stopped daemon's
   * process alive (a chaos-harness finding: SIGKILLed 60 s after its clean stop). The stop sequence settles what is
   * left with explicit `reconcile(…, { wait: true })` calls.
   */
  stop(): void {
    this.stopped = true;
    for (const s of this.timers.values()) s.unsubscribe();
    this.timers.clear();
  }
}

function isUnconfirmed(order: TrackedOrder): boolean {
  return order.orderId === undefined && (order.state === 'pending' || order.state === 'unknown');
}

function nothingOf(facts: VenueFacts): boolean {
  return facts.open === undefined && facts.finished === undefined && facts.deals.every((d) => dealDefects(d).length > 0);
}
