import type { Logger } from 'pino';
import type { SchedulerLike, Subject } from 'rxjs';
import type { TradingApi } from '../venue/trading-api.js';
import type { AccountLimits } from './account-risk.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import type { StrategyBoundary } from './strategy-boundary.js';
import type { StrategyRun } from './strategy-run.js';

export interface EngineCoreOptions {
  readonly api: TradingApi;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly logger: Logger;
  readonly journal: Journal;
  readonly runs: readonly StrategyRun[];
  readonly events$: Subject<EngineEvent>;
  readonly dryRun: boolean;
  readonly concurrency?: number | undefined;
  /** See Executor's batchPlaces. */
  readonly bulkPlaces?: boolean | undefined;
  /** Where strategies' code runs (see strategy-boundary.ts). Default NO_BOUNDARY (backtests). */
  readonly boundary?: StrategyBoundary | undefined;
  /** Account-wide limits (account-risk.ts) and the money asset all strategies share. Absent: none, nothing computed. */
  readonly account?: { readonly limits: AccountLimits; readonly money: string } | undefined;
}
