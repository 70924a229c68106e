import type { Journal } from './journal.js';
import type { ControlAction } from './journal-records.js';
import type { EngineEvent } from './events.js';
import type { StrategyRun } from './strategy-run.js';

/** An operator's request (the ops HTTP surface sends them): who asked is in `source`, e.g. `http 127.0.0.1`. */
export interface ControlRequest {
  readonly action: ControlAction;
  /** Required for pause, resume and cancel-orders. */
  readonly strategyId?: string;
  /** Pause only: also cancel the strategy's resting orders (default: they stay on the book). */
  readonly cancelOrders?: boolean;
  readonly source: string;
}

export type ControlResult =
  | { readonly ok: true; readonly message: string }
  | { readonly ok: false; readonly status: 404 | 409 | 400; readonly message: string };

/** What a control needs from the engine; the runtime passes its own. */
export interface ControlTarget {
  readonly runs: readonly StrategyRun[];
  readonly journal: Journal;
  readonly now: () => number;
  emit(e: EngineEvent): void;
  /** False while starting or stopping: no control is applied then. */
  running(): boolean;
  /** Unsubscribes the strategy (no new intents). */
  stopStrategy(run: StrategyRun): void;
  /** Subscribes it again with the same context as at start. */
  startStrategy(run: StrategyRun): void;
  cancelAllOf(run: StrategyRun): void;
}

/**
 * Applies one operator control, journalled (`control` record) and emitted before it takes effect, so the journal
 * shows why a strategy stopped quoting. `stop` is only recorded here: the daemon (src/app) ends the run.
 */
export function applyControl(t: ControlTarget, req: ControlRequest): ControlResult {
  if (!t.running()) return { ok: false, status: 409, message: 'the daemon is starting or stopping; no control is applied now' };
  const record = (): void => {
    const fields = {
      action: req.action,
      ...(req.strategyId !== undefined ? { strategyId: req.strategyId } : {}),
      ...(req.action === 'pause' ? { cancelOrders: req.cancelOrders === true } : {}),
      source: req.source,
    };
    t.journal.append({ t: t.now(), type: 'control', ...fields });
    t.emit({ type: 'control', at: t.now(), ...fields });
  };
  if (req.action === 'stop') {
    record();
    return { ok: true, message: 'stopping: strategies stop, orders are cancelled as configured' };
  }
  if (req.strategyId === undefined) return { ok: false, status: 400, message: `${req.action} needs a strategy id` };
  const run = t.runs.find((r) => r.id === req.strategyId);
  if (!run) return { ok: false, status: 404, message: `no strategy '${req.strategyId}' (there are ${t.runs.map((r) => r.id).join(', ')})` };
  switch (req.action) {
    case 'pause':
      if (run.paused && req.cancelOrders !== true) return { ok: true, message: `${run.id} is already paused` };
      record();
      if (!run.paused) {
        run.paused = true;
        t.stopStrategy(run);
      }
      if (req.cancelOrders === true) t.cancelAllOf(run);
      return { ok: true, message: `${run.id} paused${req.cancelOrders === true ? ', its orders are being cancelled' : ', its resting orders stay'}` };
    case 'resume':
      if (run.halted)
        return { ok: false, status: 409, message: `${run.id} was halted (${run.haltReason ?? 'loss limit'}); it trades again only after a restart` };
      if (!run.paused) return { ok: true, message: `${run.id} is not paused` };
      record();
      run.paused = false;
      t.startStrategy(run);
      return { ok: true, message: `${run.id} resumed` };
    case 'cancel-orders':
      record();
      t.cancelAllOf(run);
      return { ok: true, message: `${run.id}: its orders are being cancelled` };
  }
}
