import PQueue from 'p-queue';
import { fmt } from '../model/decimal.js';
import type { Order } from '../model/order.js';
import { InnerValidationError, VenueError } from '../venue/errors.js';
import type { OrderState } from '../strategy/context.js';
import type { TradingApi } from '../venue/trading-api.js';
import { orderAnswerProblems } from './answer-check.js';
import type { EngineEvent } from './events.js';
import type { GatedOrder } from './gate.js';
import type { Journal } from './journal.js';
import { journalOrder } from './journal-records.js';
import type { OrderTracker } from './order-tracker.js';
import { PlaceBatcher } from './place-batcher.js';
import { CANCEL_NOT_FOUND, type Reconciler } from './reconcile.js';

export interface ExecutorOptions {
  readonly api: TradingApi;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly reconciler: Reconciler;
  readonly now: () => number;
  readonly emit: (e: EngineEvent) => void;
  /** An answer about an order that contradicts the request or itself (journalled as an anomaly, told). Default: told only. */
  readonly implausible?: ((strategyId: string, clientOrderId: string, detail: string) => void) | undefined;
  /**
   * Requests in flight per strategy. Default 1: a strategy's intents reach the venue in the order it emitted
   * them (cancels before the places that reuse their funds). Rate windows are NOT enforced here: the
   * TradingApi (RestClient live, the virtual venue in backtests) owns them, so p-queue only orders and bounds.
   */
  readonly concurrency?: number | undefined;
  /**
   * Send a strategy's limit places emitted together in one bulk request (see place-batcher.ts). Default false;
   * without `api.placeLimitBulk` it has no effect.
   */
  readonly batchPlaces?: boolean | undefined;
}

/**
 * Submits gated orders and cancels through one p-queue per strategy. Every submission is journalled
 * BEFORE its request is sent; a rejection the venue surely made becomes `rejected`, anything else
 * without a usable answer becomes `unknown` and goes to the reconciler (never resubmitted).
 */
export class Executor {
  private readonly queues = new Map<string, PQueue>();
  /** Ends when an order's submit request has an answer (or none will come); cancels wait on it. */
  private readonly submitting = new Map<string, SubmissionEnd>();
  /** Submissions queued but not started (their `submitting` end, which the stop sequence ends when it drops them). */
  private readonly queued = new Map<string, SubmissionEnd>();
  private readonly batcher: PlaceBatcher | undefined;

  constructor(private readonly o: ExecutorOptions) {
    this.batcher =
      o.batchPlaces === true && o.api.placeLimitBulk !== undefined
        ? new PlaceBatcher({
            api: o.api,
            queue: (strategyId) => this.queue(strategyId),
            start: (id) => this.queued.delete(id),
            sendOne: (strategyId, order) => this.send(strategyId, order),
            begin: (strategyId, order) => this.begin(strategyId, order),
            accepted: (strategyId, order, venue) => this.accepted(strategyId, order, venue),
            failed: (strategyId, id, error) => this.failed(strategyId, id, error),
          })
        : undefined;
  }

  depth(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size + q.pending;
    return n;
  }

  submit(strategyId: string, order: GatedOrder): void {
    const end = new SubmissionEnd();
    this.submitting.set(order.clientOrderId, end);
    this.queued.set(order.clientOrderId, end);
    if (this.batcher !== undefined) {
      if (order.kind === 'limit') {
        this.batcher.add(strategyId, order, () => this.ended(order.clientOrderId, end));
        return;
      }
      this.batcher.close(strategyId); // a stop-limit keeps its place among the strategy's requests
    }
    void this.queue(strategyId).add(() => {
      this.queued.delete(order.clientOrderId);
      return this.send(strategyId, order, end);
    }, TASK);
  }

  /** The submission has its answer, or none will come: cancels waiting on it go on. */
  private ended(clientOrderId: string, end: SubmissionEnd): void {
    end.end();
    this.submitting.delete(clientOrderId);
  }

  /** Queues a cancel (the caller marked it with `tracker.requestCancel`; the mark is cleared when it ends). */
  cancel(strategyId: string, clientOrderId: string): void {
    this.batcher?.close(strategyId); // places emitted after this cancel go after it, as emitted
    // the mark is cleared in a reaction to the cancel's end, as an async wrapper awaiting it would (the same microtask:
    // the orders notifier's flush of the cancel's outcome still comes first), without that wrapper's promise per cancel
    void this.queue(strategyId).add(
      () =>
        this.sendCancel(strategyId, clientOrderId).then(
          () => this.o.tracker.clearCancel(clientOrderId),
          (error: unknown) => {
            this.o.tracker.clearCancel(clientOrderId);
            throw error;
          },
        ),
      TASK,
    );
  }

  /**
   * Drops every task that has not started (on stop). Returns the client order ids of the dropped submissions:
   * nothing was journalled or sent for them, so the caller settles them as never sent.
   */
  clear(): string[] {
    for (const q of this.queues.values()) q.clear();
    const dropped = [...this.queued.keys()];
    for (const [id, end] of this.queued) this.ended(id, end);
    this.queued.clear();
    return dropped;
  }

  async drain(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.onIdle()));
    await Promise.all([...this.submitting.values()].map((end) => end.wait()));
  }

  private queue(strategyId: string): PQueue {
    let q = this.queues.get(strategyId);
    if (!q) {
      q = new PQueue({ concurrency: this.o.concurrency ?? 1 });
      this.queues.set(strategyId, q);
    }
    return q;
  }

  /**
   * Journals the submission (before its request is sent) and tells it. False when the journal cannot take the record:
   * the order is then settled as rejected here and never sent (no order goes out that a restart could not know).
   */
  private begin(strategyId: string, order: GatedOrder): boolean {
    const { journal, tracker, now, emit } = this.o;
    const id = order.clientOrderId;
    try {
      // a journal that drops its records is spared making this one (journalOrder formats every Decimal)
      if (journal.discards !== true)
        journal.append({
          t: now(),
          type: 'submit',
          strategyId,
          clientOrderId: id,
          order: journalOrder(order),
          ...(order.tag !== undefined ? { tag: order.tag } : {}),
        });
    } catch (error) {
      tracker.move(id, 'rejected');
      const message = `not sent: ${(error as Error).message}`;
      emit({ type: 'rejected', at: now(), strategyId, stage: 'engine', reason: 'engine:journal-unwritable', message, clientOrderId: id });
      return false;
    }
    emit({ type: 'submitted', at: now(), strategyId, clientOrderId: id, kind: 'place' });
    return true;
  }

  /**
   * Sends one submission and takes its answer; with `end` (a task of its own, not the batcher's), the submission is
   * ended here once that is done. One async function per place, not a second one awaiting this one only to end it.
   */
  private async send(strategyId: string, order: GatedOrder, end?: SubmissionEnd): Promise<void> {
    const { api } = this.o;
    const id = order.clientOrderId;
    try {
      if (!this.begin(strategyId, order)) return;
      let venue: Order;
      try {
        // the gated order is the request: no other form of it is made before the client serializes it for the wire
        venue = order.kind === 'limit' ? await api.placeLimit(order) : await api.placeStopLimit(order);
      } catch (error) {
        this.failed(strategyId, id, error);
        return;
      }
      this.accepted(strategyId, order, venue);
    } finally {
      if (end !== undefined) this.ended(id, end);
    }
  }

  /**
   * The venue's record of an accepted order: tracker, journal outcome, event. A record that contradicts the request
   * (another market, side, amount, price, type or client id) or itself (a negative or over-full `left`, negative deal
   * figures) is no answer: the outcome is UNKNOWN and reconciled, nothing of the record journalled.
   */
  private accepted(strategyId: string, order: GatedOrder, venue: Order): void {
    const { tracker, now, emit } = this.o;
    const id = order.clientOrderId;
    const asked = tracker.get(id);
    const problems = asked === undefined ? [] : orderAnswerProblems(asked, venue);
    if (problems.length > 0) {
      this.implausible(strategyId, id, `answer to the order: ${problems.join('; ')}`);
      this.failed(strategyId, id, new Error(`the venue's answer contradicts the order (${problems.join('; ')})`));
      return;
    }
    tracker.applyVenueOrder(id, venue, order.kind === 'limit' && order.ioc === true ? IOC : NOT_IOC);
    this.journalAnswered(strategyId, id, 'open', venue);
    emit({ type: 'accepted', at: now(), strategyId, clientOrderId: id, order: venue });
  }

  /**
   * The outcome record of an answer the venue gave and the tracker took: the order's state after it (`fallback` if the
   * tracker no longer holds it), the venue's id and what is left. Not built when the journal drops records (a backtest).
   */
  private journalAnswered(strategyId: string, id: string, fallback: OrderState, venue: Order): void {
    const { tracker, journal, now } = this.o;
    if (journal.discards === true) return;
    const state = tracker.get(id)?.state ?? fallback;
    journal.append({ t: now(), type: 'outcome', strategyId, clientOrderId: id, state, orderId: venue.orderId, left: fmt(venue.left) });
  }

  private implausible(strategyId: string, id: string, detail: string): void {
    if (this.o.implausible !== undefined) this.o.implausible(strategyId, id, detail);
    else this.o.emit({ type: 'error', at: this.o.now(), strategyId, code: 'ERR_VENUE_IMPLAUSIBLE', message: `${id}: ${detail}` });
  }

  private failed(strategyId: string, id: string, error: unknown): void {
    const { tracker, journal, now, emit } = this.o;
    if (error instanceof VenueError && error.rejected) {
      tracker.move(id, 'rejected');
      const reason = `venue:${error.venueCode ?? error.status ?? error.code}`;
      journal.append({ t: now(), type: 'outcome', strategyId, clientOrderId: id, state: 'rejected', reason: `${reason} ${describeVenueError(error)}` });
      emit({
        type: 'rejected',
        at: now(),
        strategyId,
        stage: 'venue',
        reason,
        message: describeVenueError(error),
        clientOrderId: id,
        ...(error.venueCode !== undefined ? { venueCode: error.venueCode } : {}),
      });
      return;
    }
    tracker.move(id, 'unknown');
    const message = error instanceof Error ? error.message : String(error);
    journal.append({ t: now(), type: 'outcome', strategyId, clientOrderId: id, state: 'unknown', reason: message });
    emit({ type: 'unknown', at: now(), strategyId, clientOrderId: id, message });
    void this.o.reconciler.reconcile(id);
  }

  private async sendCancel(strategyId: string, id: string): Promise<void> {
    const { api, tracker, journal, now, emit } = this.o;
    await this.submitting.get(id)?.wait();
    const order = tracker.get(id);
    if (!order || order.state === 'filled' || order.state === 'canceled' || order.state === 'rejected') return;
    journal.append({ t: now(), type: 'cancel', strategyId, clientOrderId: id });
    tracker.markCancelSent(id);
    emit({ type: 'submitted', at: now(), strategyId, clientOrderId: id, kind: 'cancel' });
    try {
      const venue = await api.cancel(
        order.orderId !== undefined ? { market: order.market, orderId: order.orderId } : { market: order.market, clientOrderId: id },
      );
      const problems = orderAnswerProblems(order, venue);
      if (problems.length > 0) {
        this.implausible(strategyId, id, `answer to the cancel: ${problems.join('; ')}`);
        await this.o.reconciler.reconcile(id);
        return;
      }
      tracker.setFinalDealt(id, venue.dealStock);
      tracker.move(id, 'canceled', venue);
      this.journalAnswered(strategyId, id, 'canceled', venue);
      emit({ type: 'canceled', at: now(), strategyId, clientOrderId: id });
    } catch (error) {
      // Not found: it filled or was cancelled meanwhile; the venue's records say which.
      if (error instanceof InnerValidationError && error.venueCode === CANCEL_NOT_FOUND) {
        await this.o.reconciler.reconcile(id);
        return;
      }
      if (error instanceof VenueError && error.rejected) {
        emit({
          type: 'rejected',
          at: now(),
          strategyId,
          stage: 'venue',
          reason: `venue-cancel:${error.venueCode ?? error.status ?? error.code}`,
          message: error.message,
          clientOrderId: id,
        });
        return;
      }
      emit({
        type: 'error',
        at: now(),
        strategyId,
        code: (error as { code?: string }).code ?? 'ERR_CANCEL',
        message: `cancel ${id}: ${(error as Error).message}`,
      });
      await this.o.reconciler.reconcile(id);
    }
  }
}

/**
 * The options of every executor task. p-queue gives a task without an id a fresh one from a BigInt counter, made into
 * text, on every add (~8 % of its cost per task); the id only serves its setPriority and abort, which the executor
 * never uses, so one shared id does.
 */
const TASK = { id: 'executor' } as const;

/** applyVenueOrder's options, made once. */
const IOC = { ioc: true } as const;
const NOT_IOC = { ioc: false } as const;

/**
 * The end of one submission, which cancels of the order (and the stop's drain) wait on: its promise is made only when
 * someone waits, not for every order placed (most are never waited on).
 */
class SubmissionEnd {
  private done = false;
  private promise: Promise<void> | undefined;
  private resolve: (() => void) | undefined;

  wait(): Promise<void> {
    this.promise ??= this.done ? Promise.resolve() : new Promise<void>((r) => (this.resolve = r));
    return this.promise;
  }

  end(): void {
    this.done = true;
    this.resolve?.();
  }
}

/** Message plus the venue's errors map (e.g. `{"amount":["Not enough balance."]}`). */
function describeVenueError(e: VenueError): string {
  const details = Object.entries(e.errors).map(([k, v]) => `${k}: ${v.join('; ')}`);
  return details.length > 0 ? `${e.message} (${details.join(', ')})` : e.message;
}
