import type { Balances } from '../model/balance.js';
import type { Deal } from '../model/order.js';
import type { EngineCoreOptions } from './engine-core-options.js';
import type { EngineEvent, RejectionStage } from './events.js';
import type { Executor } from './executor.js';
import { journalBalances } from './journal-records.js';
import type { OrderTracker } from './order-tracker.js';
import type { Reconciler } from './reconcile.js';
import { cancelAllHooks } from './shutdown-cancel-all.js';
import type { StopPort } from './stop-sequence.js';
import type { StrategyRun } from './strategy-run.js';

/** What the engine lends its stop sequence. */
export interface EngineStopSide {
  readonly executor: Executor;
  readonly tracker: OrderTracker;
  readonly reconciler: Reconciler;
  readonly runsById: ReadonlyMap<string, StrategyRun>;
  readonly emit: (e: EngineEvent) => void;
  readonly cancel: (run: StrategyRun, clientOrderId: string) => void;
  readonly reject: (run: StrategyRun, stage: RejectionStage, reason: string, message: string, clientOrderId?: string) => void;
  readonly handleDeal: (deal: Deal) => void;
  /** Keeps the balances the stop read (stamped now). */
  readonly keepBalances: (value: Balances) => void;
}

/** The stop sequence's port onto the engine (see stop-sequence.ts). */
export function engineStopPort(o: EngineCoreOptions, e: EngineStopSide): StopPort {
  return {
    api: o.api,
    executor: e.executor,
    tracker: e.tracker,
    reconciler: e.reconciler,
    now: o.now,
    dryRun: o.dryRun,
    scheduler: o.scheduler,
    owns: (id) => o.runs.some((r) => r.owns(id)),
    markets: [...new Set(o.runs.map((r) => r.market.name))],
    emit: (ev) => e.emit(ev),
    dropped: (id) => {
      const order = e.tracker.get(id);
      e.tracker.move(id, 'rejected');
      const run = order ? e.runsById.get(order.strategyId) : undefined;
      if (run) e.reject(run, 'engine', 'engine:dropped-on-stop', 'queued intent dropped on stop, never sent', id);
    },
    cancel: (strategyId, id) => {
      const run = e.runsById.get(strategyId);
      if (run) e.cancel(run, id);
    },
    handleDeal: (d) => e.handleDeal(d),
    ...cancelAllHooks({ tracker: e.tracker, journal: o.journal, now: o.now, runs: o.runs, emit: (ev) => e.emit(ev) }),
    balances: (value) => {
      e.keepBalances(value);
      o.journal.append({ t: o.now(), type: 'balance', balances: journalBalances(value) });
    },
  };
}
