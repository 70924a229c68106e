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
import { Subject, Subscription } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { Order } from '../model/order.js';
import { dealsSource } from '../streams/deals-source.js';
import { defaultStaleAfterMs, detectStale } from '../streams/detect-stale.js';
import { poll } from '../streams/poll.js';
import { ClientOrderIds } from './client-order-ids.js';
import { EngineCore, type StrategyRun } from './engine-core.js';
import type { EngineEvent } from './events.js';
import { journalBalances } from './journal-records.js';
import { replayJournal } from './journal-replay.js';
import { fetchAllOpenOrders } from '../streams/fetch-open-orders.js';
import { restoreAndAdopt } from './restore.js';
import { withStartupRetries } from './startup-retry.js';
import type { RunSummary } from './run-summary.js';
import type { Stamped } from './free-funds.js';
import { applyControl } from './strategy-controls.js';
import type { StopOutcome } from './stop-sequence.js';
import { accountSetup } from './account-risk.js';
import { marketSources } from './market-sources.js';
import type { Runtime, RuntimeOptions } from './runtime-options.js';
import { strategyRuns } from './strategy-runs.js';
import { sameBalanceValues, sameBookTop } from './unchanged-snapshots.js';

export type { PollingOptions, Runtime, RuntimeOptions, RuntimeStrategy } from './runtime-options.js';
export { sameBalanceValues } from './unchanged-snapshots.js';

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

  const runs: StrategyRun[] = strategyRuns(options.strategies, markets);
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

  const { onPollError, books, strategyBooks, trades, tradesPollMs, stampedBalances$, balances$ } = marketSources({
    api,
    scheduler,
    logger,
    now,
    polling,
    marketNames,
    onPolled: options.onPolled,
    emit: (e) => core.emit(e),
    isStale: (m) => core.bookGuard.isStale(m),
  });

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
        // Snapshots are journalled when they change, not on every poll (nor compared, for a journal that drops them).
        if (journal.discards === true) return;
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
            () => {
              const startedAt = now();
              // a reaction, not an async function's await: its answer one turn after the orders', as the await's was
              return fetchAllOpenOrders(api, m).then((value) => ({ startedAt, value }));
            },
            // fetchAllOpenOrders asks for its first page and chains on it: one request, nothing queued
            { periodMs: polling.openOrdersMs, scheduler, onError: onPollError(`open orders ${m}`), startsRequest: true },
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

function summaryRecord(s: RunSummary): Record<string, unknown> {
  return JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
}
