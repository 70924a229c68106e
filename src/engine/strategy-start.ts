import type { Logger } from 'pino';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import type { Clock } from '../strategy/context.js';
import type { Intent } from '../strategy/intents.js';
import type { StrategyBoundary, StrategyScope } from './strategy-boundary.js';
import { strategyContext, type StrategyRun } from './strategy-run.js';

/** The streams and clock a strategy is started with. */
export interface StrategyIo {
  book$: Observable<OrderBook>;
  balances$: Observable<Balances>;
  trades$: Observable<PublicTrade>;
  candleCloseAfterMs: number;
  clock: Clock;
}

/**
 * Subscribes the strategy inside its boundary (see strategy-boundary.ts): its code, and every callback, timer and
 * promise it starts, carry its scope; intents are handled outside it. Any failure of its code - an error notification,
 * a throw while it is created, or (through the daemon's process handlers) an exception or rejection traced to its
 * scope - is told to `fail`.
 */
export function subscribeInBoundary(
  run: StrategyRun,
  io: StrategyIo,
  o: {
    readonly boundary: StrategyBoundary;
    readonly scheduler: SchedulerLike;
    readonly logger: Logger;
    readonly fail: (error: unknown) => void;
    readonly handleIntent: (intent: Intent) => void;
  },
): void {
  const { boundary } = o;
  const scope: StrategyScope = { strategyId: run.id, fail: (error) => o.fail(error) };
  const ctx = strategyContext(run, { ...io, scheduler: o.scheduler, logger: o.logger }, (source) => boundary.deliver(scope, source));
  boundary.run(scope, () => {
    try {
      run.subscription = run.definition
        .create(ctx)
        .subscribe({ next: (intent) => boundary.exit(() => o.handleIntent(intent)), error: (error: unknown) => scope.fail(error) });
    } catch (error) {
      scope.fail(error);
    }
  });
}
