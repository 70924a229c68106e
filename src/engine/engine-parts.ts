import type { OrderBook } from '../model/book.js';
import type { Deal } from '../model/order.js';
import { AccountRisk } from './account-risk.js';
import type { EngineCoreOptions } from './engine-core-options.js';
import type { EngineEvent } from './events.js';
import { Executor } from './executor.js';
import { FillChecks } from './fill-checks.js';
import { OrderTracker } from './order-tracker.js';
import type { PnlLedger } from './pnl.js';
import { Reconciler } from './reconcile.js';
import { midOf } from './status-view.js';
import type { StrategyRun } from './strategy-run.js';

/** The engine's parts (see engineParts). */
export interface EngineParts {
  readonly tracker: OrderTracker;
  readonly reconciler: Reconciler;
  readonly fills: FillChecks;
  readonly executor: Executor;
  readonly account: AccountRisk | undefined;
}

/** What the parts call back into the engine for. */
export interface EngineHooks {
  readonly emit: (e: EngineEvent) => void;
  readonly markDirty: (strategyId: string) => void;
  readonly handleDeal: (deal: Deal, released?: boolean) => void;
  readonly implausible: (strategyId: string, clientOrderId: string, detail: string) => void;
  readonly halt: (run: StrategyRun, reason: string) => void;
}

/**
 * The engine's parts and how they reach each other: the tracker, the reconciler (applying the deals it finds through
 * the engine, releasing held ones through the fill checks), the fill checks, the executor and the account's limits.
 * `ledgers` holds every run's ledger already; `books` is read for the account's marks.
 */
export function engineParts(
  o: EngineCoreOptions,
  ledgers: ReadonlyMap<string, PnlLedger>,
  books: ReadonlyMap<string, OrderBook>,
  core: EngineHooks,
): EngineParts {
  const tracker = new OrderTracker({ now: o.now }, (strategyId) => core.markDirty(strategyId));
  const reconciler: Reconciler = new Reconciler({
    api: o.api,
    tracker,
    journal: o.journal,
    scheduler: o.scheduler,
    now: o.now,
    emit: (e) => core.emit(e),
    applyDeal: (d) => core.handleDeal(d),
    hasHeldDeals: (id) => fills.held.has(id),
    settleHeld: (id, executed) => fills.settle(id, (d) => core.handleDeal(d, true), executed),
  });
  const fills = new FillChecks({
    tracker,
    journal: o.journal,
    now: o.now,
    emit: (e) => core.emit(e),
    reconcile: (id) => void reconciler.reconcile(id),
  });
  const executor = new Executor({
    api: o.api,
    tracker,
    journal: o.journal,
    reconciler,
    now: o.now,
    emit: (e) => core.emit(e),
    implausible: (strategyId, id, detail) => core.implausible(strategyId, id, detail),
    concurrency: o.concurrency,
    ...(o.bulkPlaces === true ? { batchPlaces: true } : {}),
  });
  const account = o.account
    ? new AccountRisk({
        ...o.account,
        sources: {
          strategies: o.runs.map((r) => ({ id: r.id, market: r.market.name, ledger: ledgers.get(r.id)! })),
          mid: (market) => midOf(books.get(market)),
          liveOrders: () => tracker.liveOrders(),
        },
        journal: o.journal,
        now: o.now,
        emit: (e) => core.emit(e),
        // the one halt the engine has, for every strategy not halted yet (paused ones too: their orders go)
        haltAll: (reason) => {
          for (const run of o.runs) if (!run.halted) core.halt(run, reason);
        },
      })
    : undefined;
  return { tracker, reconciler, fills, executor, account };
}
