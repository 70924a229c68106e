import type { Logger } from 'pino';
import type { Observable, SchedulerLike } from 'rxjs';
import type { OrderBook } from '../model/book.js';
import type { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Clock } from '../strategy/context.js';
import type { StrategyDefinition } from '../strategy/define-strategy.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { AccountLimits } from './account-risk.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import type { RiskLimits } from './risk-limits.js';
import type { RunSummary, StatusSnapshot } from './run-summary.js';
import type { StopOutcome } from './stop-sequence.js';
import type { StrategyBoundary } from './strategy-boundary.js';
import type { ControlRequest, ControlResult } from './strategy-controls.js';

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
