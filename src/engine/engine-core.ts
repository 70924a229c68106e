import type { Balances } from '../model/balance.js';
import type { OrderBook } from '../model/book.js';
import type { Deal, Order } from '../model/order.js';
import type { Intent } from '../strategy/intents.js';
import type { AccountRisk } from './account-risk.js';
import { BookGuard } from './book-guard.js';
import type { ClientOrderIds } from './client-order-ids.js';
import type { EngineCoreOptions } from './engine-core-options.js';
import { engineParts } from './engine-parts.js';
import { engineStopPort } from './engine-stop-port.js';
import type { EngineEvent, RejectionStage } from './events.js';
import { EventCounters } from './event-counters.js';
import type { Executor } from './executor.js';
import type { FillChecks } from './fill-checks.js';
import type { Stamped } from './free-funds.js';
import { LazyFreeFunds } from './lazy-free-funds.js';
import { gatePlace } from './gate.js';
import { ImplausibleAnswers } from './implausible-answers.js';
import { journalDeal, journalIntent } from './journal-records.js';
import type { JournalState } from './journal-replay.js';
import { syncOpenOrders } from './open-orders-sync.js';
import type { OrderTracker } from './order-tracker.js';
import { OrdersNotifier } from './orders-notifier.js';
import { PnlLedger } from './pnl.js';
import type { Reconciler } from './reconcile.js';
import { LazyRiskState } from './lazy-risk-state.js';
import { lossLimitBreached, pruneOrderTimes, type RiskState } from './risk-limits.js';
import { NO_BOUNDARY } from './strategy-boundary.js';
import type { StrategyRun } from './strategy-run.js';
import { subscribeInBoundary, type StrategyIo } from './strategy-start.js';
import type { RunSummary, StatusSnapshot } from './run-summary.js';
import { buildStatus, buildSummary, midOf } from './status-view.js';
import { logEvent } from './log-event.js';
import { runStopSequence, type StopOutcome } from './stop-sequence.js';

const FINISHED_RETENTION_MS = 10 * 60_000;

export type { StrategyRun } from './strategy-run.js';
export type { EngineCoreOptions } from './engine-core-options.js';

/** The engine's state and reactions: intents → gate → executor, deals → ledger, venue snapshots → tracker. */
export class EngineCore {
  readonly tracker: OrderTracker;
  readonly reconciler: Reconciler;
  readonly fills: FillChecks;
  readonly account: AccountRisk | undefined;
  /** Staleness and the price band's reference per market (see book-guard.ts). */
  readonly bookGuard = new BookGuard();
  private readonly executor: Executor;
  private readonly ledgers = new Map<string, PnlLedger>();
  private readonly runsById = new Map<string, StrategyRun>();
  private readonly books = new Map<string, OrderBook>();
  private balances: Stamped<Balances> | undefined;
  private ids: ClientOrderIds | undefined;
  private readonly counts = new EventCounters();
  /** Sends strategies their live orders when they changed (see orders-notifier.ts). */
  private readonly notifier = new OrdersNotifier((id) => this.runsById.get(id)?.orders$.next(this.tracker.live(id)));
  /** What the stop sequence established (set once it ran). */
  private stopOutcome: StopOutcome | undefined;
  /** The implausible answers reported (see implausible). */
  private readonly answers: ImplausibleAnswers;

  constructor(private readonly o: EngineCoreOptions) {
    for (const r of o.runs) {
      this.runsById.set(r.id, r);
      this.ledgers.set(r.id, new PnlLedger());
    }
    this.answers = new ImplausibleAnswers({ journal: o.journal, now: o.now, emit: (e) => this.emit(e) });
    const parts = engineParts(o, this.ledgers, this.books, {
      emit: (e) => this.emit(e),
      markDirty: (strategyId) => this.notifier.markDirty(strategyId),
      handleDeal: (d, released) => this.handleDeal(d, released),
      implausible: (strategyId, id, detail) => this.implausible(strategyId, id, detail),
      halt: (run, reason) => this.halt(run, reason),
    });
    this.tracker = parts.tracker;
    this.reconciler = parts.reconciler;
    this.fills = parts.fills;
    this.executor = parts.executor;
    this.account = parts.account;
  }

  emit(e: EngineEvent): void {
    this.counts.count(e);
    logEvent(this.o.logger, e);
    this.o.events$.next(e);
  }

  setIds(ids: ClientOrderIds): void {
    this.ids = ids;
  }

  restoreLedgers(state: JournalState): void {
    this.tracker.markDealsSeen(state.dealIds);
    for (const [id, fills] of state.fills) {
      const ledger = this.ledgers.get(id);
      if (ledger) for (const f of fills) ledger.apply(f);
    }
  }

  setBalances(b: Stamped<Balances>): void {
    this.balances = b;
    // Finished orders are kept a while for late deals and status, then dropped so memory stays flat.
    this.tracker.prune(this.o.now() - FINISHED_RETENTION_MS);
  }

  /** A sane book (runtime passes only those, see streams/sane-books): the marks, the post-only check and the band's reference. */
  onBook(market: string, book: OrderBook): void {
    this.books.set(market, book);
    this.bookGuard.onSaneBook(market, book);
    for (const run of this.o.runs) if (run.market.name === market) this.checkLoss(run);
    this.account?.check();
  }

  /**
   * Subscribes the strategy inside its boundary (see strategy-start.ts). Any failure of its code stops that strategy
   * alone and cancels its orders; the others carry on.
   */
  startStrategy(run: StrategyRun, io: StrategyIo): void {
    run.orders$.next(this.tracker.live(run.id));
    subscribeInBoundary(run, io, {
      boundary: this.o.boundary ?? NO_BOUNDARY,
      scheduler: this.o.scheduler,
      logger: this.o.logger,
      fail: (error) => this.strategyFailed(run, error),
      handleIntent: (intent) => this.handleIntent(run, intent),
    });
  }

  /** The strategy's code failed: it stops alone, its orders are cancelled, the failure is journalled and told. */
  strategyFailed(run: StrategyRun, error: unknown): void {
    if (run.halted && run.haltReason?.startsWith('failed') === true) return;
    const message = error instanceof Error ? error.message : String(error);
    this.emit({ type: 'error', at: this.o.now(), strategyId: run.id, code: 'ERR_STRATEGY', message: `strategy ${run.id} failed and stopped: ${message}` });
    this.halt(run, `failed: ${message}`, 'failed');
  }

  stopStrategy(run: StrategyRun): void {
    run.subscription?.unsubscribe();
    run.subscription = undefined;
  }

  handleIntent(run: StrategyRun, intent: Intent): void {
    const { now, journal, dryRun } = this.o;
    this.emit({ type: 'intent', at: now(), strategyId: run.id, intent, dryRun });
    if (journal.discards !== true) journal.append({ t: now(), type: 'intent', strategyId: run.id, intent: journalIntent(intent) });
    if (run.halted) return this.reject(run, 'halted', 'halted', `strategy is halted (${run.haltReason ?? 'loss limit'})`);
    if (intent.kind === 'cancel') return this.cancel(run, intent.clientOrderId, true);
    if (intent.kind === 'cancel-all') {
      for (const o of this.tracker.live(run.id)) this.cancel(run, o.clientOrderId, false);
      return;
    }
    if (this.bookGuard.isStale(run.market.name))
      return this.reject(run, 'risk', 'stale-data', `market data of ${run.market.name} is stale: no order is placed until a fresh sane book returns`);
    if (!this.ids) return this.reject(run, 'engine', 'engine:not-started', 'runtime not started');
    const clientOrderId = this.ids.next(run.prefix);
    // every key in one literal (no spread of an optional one: V8's slow path, on every place); an absent book is
    // undefined, which the gate reads as absent
    const result = gatePlace({
      market: run.market,
      intent,
      clientOrderId,
      risk: run.risk,
      riskState: this.riskState(run),
      free: this.balances === undefined ? undefined : new LazyFreeFunds(run.market, this.balances, this.tracker),
      book: this.books.get(run.market.name),
      band: { reference: this.bookGuard.reference(run.market.name) },
      nowMs: now(),
    });
    if (!result.ok) return this.reject(run, result.stage, result.reason, result.message, clientOrderId);
    const account = this.account?.checkOrder(run.id, result.order);
    if (account !== undefined && !account.ok) return this.reject(run, 'risk', `risk:${account.reason}`, account.message, clientOrderId);
    const g = result.order;
    this.tracker.trackFor(run.id, g);
    const placedAt = now();
    pruneOrderTimes(run.recentOrderTimes, placedAt);
    run.recentOrderTimes.push(placedAt);
    if (dryRun) this.tracker.move(clientOrderId, 'open');
    else this.executor.submit(run.id, g);
  }

  private cancel(run: StrategyRun, clientOrderId: string, explicit: boolean): void {
    const order = this.tracker.get(clientOrderId);
    if (!order || order.strategyId !== run.id) {
      if (explicit) this.reject(run, 'engine', 'engine:unknown-order', `no order ${clientOrderId} of strategy ${run.id}`, clientOrderId);
      return;
    }
    if (!this.tracker.requestCancel(clientOrderId)) return; // finished already, or a cancel is in flight
    if (this.o.dryRun) {
      this.tracker.move(clientOrderId, 'canceled');
      this.emit({ type: 'canceled', at: this.o.now(), strategyId: run.id, clientOrderId });
    } else this.executor.cancel(run.id, clientOrderId);
  }

  private reject(run: StrategyRun, stage: RejectionStage, reason: string, message: string, clientOrderId?: string): void {
    this.o.journal.append({ t: this.o.now(), type: 'rejected', strategyId: run.id, stage, reason, message, ...(clientOrderId ? { clientOrderId } : {}) });
    this.emit({ type: 'rejected', at: this.o.now(), strategyId: run.id, stage, reason, message, ...(clientOrderId ? { clientOrderId } : {}) });
  }

  private riskState(run: StrategyRun): RiskState {
    // the live orders' figures only when a limit reads them (see lazy-risk-state.ts)
    return new LazyRiskState(this.tracker, run.id, this.ledgers.get(run.id)!.currentPosition(), run.recentOrderTimes, run.halted);
  }

  /**
   * A deal from the deals stream or a reconcile: checked against its order (FillChecks: a malformed or misfitting deal
   * is never journalled), then applied once (the tracker dedupes by id), journalled, booked, told.
   */
  handleDeal(deal: Deal, released = false): void {
    if (this.tracker.hasSeenDeal(deal.id) || (!released && !this.fills.admit(deal))) return;
    const { order, fresh } = this.tracker.applyDeal(deal);
    if (!fresh) return;
    this.fills.applied(deal);
    // a deal on an order settled as never placed proves it was placed: it is in doubt again; and a deal of an order
    // with deals held back may settle them (the true record of a fill another was shadowing): both are reconciled
    if (order !== undefined && (order.state === 'unknown' || this.fills.held.has(order.clientOrderId))) void this.reconciler.reconcile(order.clientOrderId);
    this.bookGuard.onTrade(deal.market, deal.price);
    const run = order ? this.runsById.get(order.strategyId) : undefined;
    if (this.o.journal.discards !== true)
      this.o.journal.append({ t: this.o.now(), type: 'fill', strategyId: order?.strategyId ?? null, deal: journalDeal(deal) });
    this.emit({ type: 'fill', at: this.o.now(), strategyId: order?.strategyId, deal });
    if (!run) return;
    this.ledgers.get(run.id)!.apply(deal);
    run.fills$.next(deal);
    this.checkLoss(run);
    this.account?.check();
  }

  /** An open-orders snapshot (see open-orders-sync.ts). */
  syncOpenOrders(market: string, snap: Stamped<Order[]>): void {
    syncOpenOrders(this, market, snap);
  }

  /** A venue answer about one of our orders that is not taken as fact (see implausible-answers.ts). */
  implausible(strategyId: string, clientOrderId: string, detail: string): void {
    this.answers.report(strategyId, clientOrderId, detail);
  }

  private checkLoss(run: StrategyRun): void {
    if (run.halted || run.risk.maxLoss === undefined) return;
    const net = this.ledgers.get(run.id)!.net(midOf(this.books.get(run.market.name)));
    if (lossLimitBreached(run.risk, net)) this.halt(run, `net PnL ${net.toFixed()} reached the loss limit -${run.risk.maxLoss.toFixed()}`);
  }

  /**
   * Halts the strategy for good (until a restart): unsubscribed, its intents refused, its orders cancelled, the reason
   * journalled. `loss-limit` tells the `risk-halt` event (and its alert); a failure was told as an `error` already.
   */
  private halt(run: StrategyRun, reason: string, cause: 'loss-limit' | 'failed' = 'loss-limit'): void {
    run.halted = true;
    run.haltReason = reason;
    this.stopStrategy(run);
    this.o.journal.append({ t: this.o.now(), type: 'halt', strategyId: run.id, reason });
    if (cause === 'loss-limit') this.emit({ type: 'risk-halt', at: this.o.now(), strategyId: run.id, reason });
    this.cancelAllOf(run);
  }

  /**
   * The market's book went stale (no fresh sane book for the stale time) or fresh again. Stale: the resting orders of
   * every strategy on it are cancelled (quotes on data nobody can see are the risk) and places are refused until a
   * fresh sane book returns; the strategies stay subscribed and quote again by themselves then.
   */
  onStale(market: string, stale: boolean): void {
    if (!this.bookGuard.setStale(market, stale)) return;
    const runs = this.o.runs.filter((r) => r.market.name === market);
    const canceled = stale ? runs.reduce((n, r) => n + this.tracker.live(r.id).length, 0) : 0;
    this.emit({ type: 'stale', at: this.o.now(), market, source: 'orderbook', stale, ...(stale ? { canceled } : {}) });
    if (stale) for (const run of runs) this.cancelAllOf(run);
  }

  /** Cancels every live order of the strategy (a cancel already in flight is not repeated). */
  cancelAllOf(run: StrategyRun): void {
    for (const o of this.tracker.live(run.id)) this.cancel(run, o.clientOrderId, false);
  }

  /** Stop sequence after the strategies are unsubscribed (see stop-sequence.ts). Never throws. */
  async shutdown(opts: { cancel: boolean; startedAt: number }): Promise<StopOutcome> {
    this.stopOutcome = await runStopSequence(
      engineStopPort(this.o, {
        executor: this.executor,
        tracker: this.tracker,
        reconciler: this.reconciler,
        runsById: this.runsById,
        emit: (e) => this.emit(e),
        cancel: (run, id) => this.cancel(run, id, false),
        reject: (run, stage, reason, message, id) => this.reject(run, stage, reason, message, id),
        handleDeal: (d) => this.handleDeal(d),
        keepBalances: (value) => {
          this.balances = { startedAt: this.o.now(), value };
        },
      }),
      opts,
    );
    return this.stopOutcome;
  }

  status(): StatusSnapshot {
    return buildStatus({
      at: this.o.now(),
      runs: this.o.runs,
      books: this.books,
      tracker: this.tracker,
      ledgers: this.ledgers,
      queueDepth: this.executor.depth(),
      rejections: this.counts.rejections,
      balances: this.balances?.value,
      rateLimits: (this.o.api as { limiterStats?: () => unknown }).limiterStats?.(),
      ...(this.account ? { account: this.account.status() } : {}),
    });
  }

  summary(startedAt: number, stoppedAt: number): RunSummary {
    return buildSummary({
      startedAt,
      stoppedAt,
      status: this.status(),
      counters: this.counts.counters,
      openOrdersLeft: this.stopOutcome?.venueRead === true ? this.stopOutcome.openAtStop.length : this.tracker.liveOrders().length,
      ...(this.stopOutcome !== undefined ? { openAtStop: this.stopOutcome.openAtStop, inDoubt: this.stopOutcome.inDoubt } : {}),
    });
  }
}
