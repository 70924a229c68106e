/**
 * The runtime: what `bot run` (app/daemon.ts) and the backtest (on virtual time, with its own TradingApi) run.
 *
 *   venue polls (book per market, balances, open orders, deals; within the rate plan, on the injected scheduler)
 *     → sane books only (streams/sane-books; no fresh one for staleAfterMs: cancel + refuse, docs/market-data.md)
 *     → strategies (StrategyContext: book$, balances$, orders$, fills$) → intents
 *     → gate (rules quantize + validate, price band, post-only and funds pre-checks, risk limits) → rejected events | orders
 *     → executor (one p-queue per strategy; journal `submit` before the request) → accepted | rejected | unknown
 *     → tracker (pending → open → partially filled → filled/canceled/rejected; unknown → reconciler)
 *   deals (each id once) → tracker, PnL ledger, journal, fills$ → loss limit (halt + cancel)
 *
 * Every timer goes through the injected scheduler and every time through the injected clock; no Date.now,
 * setTimeout or setInterval here, so the same code runs live and on virtual time.
 */
import type { Logger } from 'pino';
import { BehaviorSubject, NEVER, Observable, Subject, Subscription, filter, map, share, shareReplay, tap, type SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import { bestPrice } from '../model/book-levels.js';
import type { Decimal } from '../model/decimal.js';
import { cmp } from '../model/decimal-compare.js';
import type { Market } from '../model/market.js';
import type { Deal, Order } from '../model/order.js';
import { ConfigError } from '../model/errors.js';
import type { Clock, OwnOrder } from '../strategy/context.js';
import type { StrategyDefinition } from '../strategy/define-strategy.js';
import { parseParams } from '../strategy/load-strategy.js';
import { bookSource } from '../streams/book-source.js';
import { dealsSource } from '../streams/deals-source.js';
import { defaultStaleAfterMs, detectStale } from '../streams/detect-stale.js';
import { DEFAULT_MAX_JUMP, saneBooks } from '../streams/sane-books.js';
import { TradeEvidence } from './trade-evidence.js';
import { poll } from '../streams/poll.js';
import { tradesSource } from '../streams/trades-source.js';
import type { TradingApi } from '../venue/trading-api.js';
import { ClientOrderIds, ownsClientOrderId, prefixFor } from './client-order-ids.js';
import { EngineCore, type StrategyRun } from './engine-core.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import { journalBalances } from './journal-records.js';
import { replayJournal } from './journal-replay.js';
import { fetchAllOpenOrders } from '../streams/fetch-open-orders.js';
import { restoreAndAdopt } from './restore.js';
import { withStartupRetries } from './startup-retry.js';
import type { RiskLimits } from './risk-limits.js';
import type { RunSummary, StatusSnapshot } from './run-summary.js';
import type { Stamped } from './free-funds.js';
import { applyControl, type ControlRequest, type ControlResult } from './strategy-controls.js';
import type { StopOutcome } from './stop-sequence.js';
import type { StrategyBoundary } from './strategy-boundary.js';
import { accountSetup, type AccountLimits } from './account-risk.js';

/** Poll periods (ms) and book query. Polling and orders share the venue's per-endpoint budgets: see streams/polling-plan. */
export interface PollingOptions {
  readonly bookMs: number;
  /** Levels per side, 0-100 (0 = 100). */
  readonly bookLimit?: number | undefined;
  /** Price aggregation 0-5. */
  readonly bookLevel?: number | undefined;
  readonly balancesMs: number;
  /** Open-orders sync: finds orders that vanished (filled or cancelled by the venue) and foreign ones with our prefix. */
  readonly openOrdersMs: number;
  readonly dealsMs: number;
  /**
   * A market with no fresh sane book for this long is stale: its strategies' resting orders are cancelled and their
   * places refused until one returns (a `stale` event each way). Default max(3 × bookMs, 5000): see defaultStaleAfterMs.
   */
  readonly staleAfterMs?: number | undefined;
  /** Sanity check of the books (streams/sane-books): largest mid move between two polls that passes at once. Default 0.10. */
  readonly maxJump?: Decimal | undefined;
  /** Polls after a jump that must agree with it before it passes. Default 2. */
  readonly confirmPolls?: number | undefined;
}

export interface RuntimeStrategy {
  readonly id: string;
  readonly definition: StrategyDefinition;
  /** Raw params; validated with the definition's schema (defaults applied). */
  readonly params: unknown;
  readonly market: string;
  readonly risk?: RiskLimits | undefined;
  /** Where the params came from, for error messages (e.g. `config/x.yaml: strategies[0].params`). */
  readonly where?: string | undefined;
}

export interface RuntimeOptions {
  readonly api: TradingApi;
  readonly scheduler: SchedulerLike;
  readonly clock: Clock;
  readonly logger: Logger;
  /** From `api.markets()`. */
  readonly markets: ReadonlyMap<string, Market>;
  readonly strategies: ReadonlyArray<RuntimeStrategy>;
  readonly polling: PollingOptions;
  readonly journal: Journal;
  /** Intents are gated and logged, nothing is sent; accepted intents rest as virtual `open` orders. */
  readonly dryRun?: boolean | undefined;
  /** Default for `stop()`: cancel the strategies' open orders. Default true. */
  readonly cancelOnStop?: boolean | undefined;
  /** Requests in flight per strategy (see Executor). Default 1. */
  readonly concurrency?: number | undefined;
  /** Batch a strategy's simultaneous limit places into bulk requests (see place-batcher.ts). Default false. */
  readonly bulkPlaces?: boolean | undefined;
  /** Where strategies' code runs, so a failure of one stops it alone (see strategy-boundary.ts). Default none. */
  readonly boundary?: StrategyBoundary | undefined;
  /** Account-wide limits over all strategies (account-risk.ts); `where` names them in errors (e.g. `x.yaml: risk.account`). */
  readonly account?: { readonly limits: AccountLimits; readonly where?: string | undefined } | undefined;
  /**
   * Told every order book a poll returned, as the venue gave it (before the sanity check): the session recorder's tap
   * (app/session-recorder.ts). Absent, nothing is added to a poll's path.
   */
  readonly onPolled?: ((market: string, book: OrderBook) => void) | undefined;
}

export interface Runtime {
  /** Replays the journal, reconciles in-flight orders, adopts the account's open orders with a strategy's prefix, starts. */
  start(): Promise<void>;
  /**
   * Stops strategies, drops queued intents, cancels open orders (when configured), sweeps final fills, runs
   * `afterShutdown` (e.g. clearing the dead-man timer, journalled), then writes the `stop` record and closes the journal.
   */
  stop(opts?: { cancelOpenOrders?: boolean; afterShutdown?: (outcome: StopOutcome, cancelled: boolean) => Promise<void> }): Promise<RunSummary>;
  readonly events$: Observable<EngineEvent>;
  status(): StatusSnapshot;
  /** An operator's control (pause, resume, cancel-orders; `stop` is recorded, the daemon ends the run). Journalled. */
  control(request: ControlRequest): ControlResult;
}

/** The daemon's engine; the backtest runs the same one on virtual time with its own TradingApi. */
export function createRuntime(options: RuntimeOptions): Runtime {
  const { api, scheduler, clock, logger, markets, polling, journal } = options;
  const now = (): number => clock.now();
  const events$ = new Subject<EngineEvent>();
  const subs = new Subscription();
  let startedAt = 0;
  let started = false;
  /** Set when start() has subscribed every strategy: controls apply from then until stop(). */
  let running = false;
  let stopping: Promise<RunSummary> | undefined;
  /** The balances last journalled: a poll with the same values (same tickers, same order) writes nothing. */
  let lastBalances: Balances | undefined;

  const prefixes = new Map<string, string>();
  const runs: StrategyRun[] = options.strategies.map((s) => {
    const market = markets.get(s.market);
    if (!market) throw new ConfigError(`strategy '${s.id}': market ${s.market} is not offered by the venue`);
    const prefix = prefixFor(s.id);
    const clash = prefixes.get(prefix);
    if (clash)
      throw new ConfigError(
        `strategies '${clash}' and '${s.id}' give the same client order id prefix '${prefix}'; make their ids differ in the first 12 characters`,
      );
    prefixes.set(prefix, s.id);
    return {
      id: s.id,
      definition: s.definition,
      params: parseParams(s.definition, s.params, s.where ?? `strategies.${s.id}.params`),
      market,
      risk: s.risk ?? {},
      prefix,
      owns: ownsClientOrderId(prefix),
      orders$: new BehaviorSubject<readonly OwnOrder[]>([]),
      fills$: new Subject<Deal>(),
      halted: false,
      paused: false,
      recentOrderTimes: [],
      subscription: undefined,
    };
  });
  const marketNames = [...new Set(runs.map((r) => r.market.name))];

  const core = new EngineCore({
    api,
    scheduler,
    now,
    logger,
    journal,
    runs,
    events$,
    dryRun: options.dryRun === true,
    concurrency: options.concurrency,
    ...(options.bulkPlaces === true ? { bulkPlaces: true } : {}),
    boundary: options.boundary,
    ...accountSetup(options.account, runs),
  });

  // ----- shared sources: one poll per market (and one for the account's balances), whatever the number of strategies
  const onPollError = (source: string) => (error: unknown, attempt: number, retryInMs: number) => {
    core.emit({
      type: 'error',
      at: now(),
      code: (error as { code?: string }).code ?? 'ERR_POLL',
      message: `${source} poll failed (attempt ${attempt}, retry in ${retryInMs} ms): ${(error as Error).message}`,
    });
  };
  // Every consumer (strategies, marks, the gate, the stale watch) sees the books through the sanity check, once per
  // market: a held book reaches none of them. Strategies see them only while the market is fresh (a frozen book
  // repeated while stale would only have them re-quote into refusals).
  // A jump is confirmed by the market's own trades where the venue offers them (trade-evidence.ts).
  const publicTrades = api.publicTrades?.bind(api);
  const evidence =
    publicTrades === undefined
      ? undefined
      : new TradeEvidence(
          (m) => publicTrades(m),
          polling.maxJump ?? DEFAULT_MAX_JUMP,
          (m, error) => onPollError(`public trades ${m}`)(error, 1, polling.bookMs),
        );
  const checked = (m: string) =>
    saneBooks({
      maxJump: polling.maxJump,
      confirmPolls: polling.confirmPolls,
      ...(evidence !== undefined ? { explained: (mid: Decimal) => evidence.explains(m, mid) } : {}),
      onHeld: (h) => {
        if (h.reason === 'jump') evidence?.request(m);
        core.emit({ type: 'book-held', at: now(), market: m, reason: h.reason, heldPolls: h.heldPolls, message: h.message });
      },
      onResumed: (r) =>
        logger.info(
          { market: m, heldPolls: r.heldPolls, outcome: r.outcome },
          r.outcome === 'back' ? 'order book sane again, the held ones were dropped' : 'order book: new price level confirmed',
        ),
    });
  const books = new Map<string, Observable<OrderBook>>();
  const strategyBooks = new Map<string, Observable<OrderBook>>();
  const onPolled = options.onPolled;
  for (const m of marketNames) {
    const polled = bookSource(
      api,
      m,
      {
        periodMs: polling.bookMs,
        limit: polling.bookLimit,
        level: polling.bookLevel,
        onError: onPollError(`orderbook ${m}`),
        // shared below, after the check: the only subscriber of the poll is that pipeline
        shared: false,
      },
      scheduler,
    );
    books.set(
      m,
      (onPolled === undefined ? polled : polled.pipe(tap((book) => onPolled(m, book)))).pipe(checked(m), shareReplay({ bufferSize: 1, refCount: true })),
    );
    strategyBooks.set(m, books.get(m)!.pipe(filter(() => !core.bookGuard.isStale(m))));
  }
  // Public trades per market (a strategy's trades$ and candles), polled only while a strategy listens: at the book's
  // period, at least a second apart (the venue stamps trades in whole seconds and lists its last 100). A candle waits
  // three polls past its period for trades still on their way.
  const tradesPollMs = Math.max(polling.bookMs, 1000);
  const trades = new Map<string, Observable<PublicTrade>>();
  for (const m of marketNames) {
    const onGap = () => logger.warn({ market: m }, 'public trades: a full page newer than every trade seen; trades between two polls may be missing');
    trades.set(
      m,
      publicTrades === undefined
        ? NEVER
        : tradesSource(publicTrades, m, { periodMs: tradesPollMs, onError: onPollError(`public trades ${m}`), onGap }, scheduler).pipe(share()),
    );
  }
  const stampedBalances$ = poll<Stamped<Balances>>(
    async () => {
      const startedAt = now();
      return { startedAt, value: await api.tradeBalance() };
    },
    { periodMs: polling.balancesMs, scheduler, onError: onPollError('trade balance') },
  ).pipe(shareReplay({ bufferSize: 1, refCount: true }));
  const balances$ = stampedBalances$.pipe(map((s) => s.value));

  async function start(): Promise<void> {
    if (started) throw new Error('runtime already started');
    started = true;
    startedAt = now();
    const replay = replayJournal(journal.records());
    const ids = new ClientOrderIds(startedAt, replay.lastRun);
    core.setIds(ids);
    journal.append({ t: startedAt, type: 'start', run: ids.run, strategies: runs.map((r) => r.id), dryRun: options.dryRun === true });
    core.restoreLedgers(replay);
    core.account?.restore(replay.account);
    if (!options.dryRun) {
      const result = await restoreAndAdopt({
        state: replay,
        strategies: runs.map((r) => ({ id: r.id, market: r.market.name, owns: r.owns })),
        api,
        tracker: core.tracker,
        journal,
        reconciler: core.reconciler,
        now,
        emit: (e) => core.emit(e),
        logger,
        retry: (what, fn) =>
          withStartupRetries(fn, {
            delay: (ms) => new Promise<void>((resolve) => scheduler.schedule(() => resolve(), ms)),
            onRetry: (error, attempt, retryInMs) => onPollError(what)(error, attempt, retryInMs),
          }),
      });
      logger.info({ ...result, run: ids.run.toString(36) }, 'journal replayed and orders reconciled');
    }

    // Account-wide streams the engine itself watches.
    subs.add(
      stampedBalances$.subscribe((b) => {
        core.setBalances(b);
        // Snapshots are journalled when they change, not on every poll.
        if (lastBalances !== undefined && sameBalanceValues(lastBalances, b.value)) return;
        lastBalances = b.value;
        journal.append({ t: now(), type: 'balance', balances: journalBalances(b.value) });
      }),
    );
    for (const m of marketNames) {
      const book$ = books.get(m)!;
      subs.add(book$.subscribe((book) => core.onBook(m, book)));
      // Before the strategies: the first fresh book after a stale spell clears the refusal before they quote on it.
      // A held book is not fresh (it never gets here), nor is a frozen one repeated (sameBookTop).
      const staleAfterMs = polling.staleAfterMs ?? defaultStaleAfterMs(polling.bookMs);
      subs.add(book$.pipe(detectStale({ staleAfterMs, scheduler, isRepeat: sameBookTop })).subscribe((s) => core.onStale(m, s.stale)));
      if (!options.dryRun) {
        const sinceSec = startedAt / 1000 - 60;
        subs.add(
          dealsSource(
            api,
            m,
            { periodMs: polling.dealsMs, since: sinceSec, knownIds: core.tracker.seenDealIds(), onError: onPollError(`deals ${m}`) },
            scheduler,
          ).subscribe((deal) => core.handleDeal(deal)),
        );
        subs.add(
          poll<Stamped<Order[]>>(
            async () => {
              const startedAt = now();
              return { startedAt, value: await fetchAllOpenOrders(api, m) };
            },
            { periodMs: polling.openOrdersMs, scheduler, onError: onPollError(`open orders ${m}`) },
          ).subscribe((snap) => core.syncOpenOrders(m, snap)),
        );
      }
    }

    // An account halted in an earlier run stays halted: strategies start paused, orders adopted since are cancelled.
    const accountHalt = core.account?.halt;
    if (accountHalt) {
      for (const run of runs) {
        run.paused = true;
        core.cancelAllOf(run);
      }
      const { peak, dayStart } = core.account.status();
      logger.warn(
        { limit: accountHalt.limit, since: accountHalt.at, peak: peak?.toFixed(), dayStart: dayStart?.toFixed() },
        `account halted in an earlier run (${accountHalt.reason}); every strategy starts paused until an operator resumes it`,
      );
    } else if (replay.account)
      logger.info(
        { peak: replay.account.peak.toFixed(), day: replay.account.day, dayStart: replay.account.dayStart.toFixed() },
        'account limits: peak and day start restored from the journal',
      );
    for (const run of runs) if (!run.paused) startRun(run);
    running = true;
    logger.info({ strategies: runs.map((r) => `${r.id}@${r.market.name}`), dryRun: options.dryRun === true }, 'runtime started');
  }

  function startRun(run: StrategyRun): void {
    core.startStrategy(run, {
      book$: strategyBooks.get(run.market.name)!,
      balances$,
      trades$: trades.get(run.market.name)!,
      candleCloseAfterMs: 3 * tradesPollMs,
      clock,
    });
  }

  function stop(opts: { cancelOpenOrders?: boolean; afterShutdown?: (outcome: StopOutcome, cancelled: boolean) => Promise<void> } = {}): Promise<RunSummary> {
    stopping ??= (async () => {
      const cancel = opts.cancelOpenOrders ?? options.cancelOnStop ?? true;
      for (const run of runs) core.stopStrategy(run);
      subs.unsubscribe();
      core.account?.stop();
      const outcome = await core.shutdown({ cancel, startedAt });
      await opts.afterShutdown?.(outcome, cancel);
      const summary = core.summary(startedAt, now());
      journal.append({ t: now(), type: 'stop', summary: summaryRecord(summary) });
      journal.close();
      events$.complete();
      return summary;
    })();
    return stopping;
  }

  return {
    start,
    stop,
    events$: events$.asObservable(),
    status: () => core.status(),
    control: (request) => {
      const result = applyControl(
        {
          runs,
          journal,
          now,
          emit: (e) => core.emit(e),
          running: () => running && stopping === undefined,
          stopStrategy: (run) => core.stopStrategy(run),
          startStrategy: startRun,
          cancelAllOf: (run) => core.cancelAllOf(run),
        },
        request,
      );
      // an operator's resume is the acknowledgement that re-arms a halted account (see AccountRisk.rearm)
      if (result.ok && request.action === 'resume') core.account?.rearm(request.source);
      return result;
    },
  };
}

/**
 * A book that repeats the previous one: same timestamp, best bid and best ask (compared as values, what a key
 * `${timestamp}|${bid}|${ask}` compared, without formatting two prices per poll).
 */
function sameBookTop(a: OrderBook, b: OrderBook): boolean {
  return a.timestamp === b.timestamp && samePrice(bestPrice(a, 'bids'), bestPrice(b, 'bids')) && samePrice(bestPrice(a, 'asks'), bestPrice(b, 'asks'));
}

function samePrice(x: Decimal | undefined, y: Decimal | undefined): boolean {
  return x === undefined || y === undefined ? x === y : x.eq(y);
}

/**
 * True when two balance snapshots have the same values under the same tickers in the same order, i.e. the same journal
 * form (fmt writes equal values alike and different values differently), compared without formatting either: the
 * very same records (a venue that reuses unchanged values, as the backtest's does) cost a reference check each.
 */
export function sameBalanceValues(a: Balances, b: Balances): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    const x = a[k]!;
    const y = b[k]!;
    if (x !== y && (cmp(x.available, y.available) !== 0 || cmp(x.freeze, y.freeze) !== 0)) return false;
  }
  return true;
}

function summaryRecord(s: RunSummary): Record<string, unknown> {
  return JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
}
