import type { Logger } from 'pino';
import type { BehaviorSubject, Observable, SchedulerLike, Subject, Subscription } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import { candles } from '../strategy/candles.js';
import type { Market } from '../model/market.js';
import type { Deal } from '../model/order.js';
import type { Clock, OwnOrder, StrategyContext } from '../strategy/context.js';
import type { StrategyDefinition } from '../strategy/define-strategy.js';
import type { RiskLimits } from './risk-limits.js';

/** One configured strategy instance while it runs. */
export interface StrategyRun {
  readonly id: string;
  readonly definition: StrategyDefinition;
  /** Validated params, defaults applied. */
  readonly params: unknown;
  readonly market: Market;
  readonly risk: RiskLimits;
  /** Client order id prefix (see client-order-ids.ts). */
  readonly prefix: string;
  readonly owns: (clientOrderId: string) => boolean;
  readonly orders$: BehaviorSubject<readonly OwnOrder[]>;
  readonly fills$: Subject<Deal>;
  halted: boolean;
  /** Why it is halted (loss limit, a failure of its code, an account limit), for the status and the summary. */
  haltReason?: string;
  /** Paused by an operator (runtime.control): unsubscribed, so it emits no intents until resumed. */
  paused: boolean;
  recentOrderTimes: number[];
  subscription: Subscription | undefined;
}

/** The strategy's whole world, built from the engine's shared streams and the instance's own subjects. */
export function strategyContext(
  run: StrategyRun,
  io: {
    book$: Observable<OrderBook>;
    balances$: Observable<Balances>;
    trades$: Observable<PublicTrade>;
    /** How long a candle waits for trades still on their way (strategy/candles.ts `closeAfterMs`). */
    candleCloseAfterMs: number;
    clock: Clock;
    scheduler: SchedulerLike;
    logger: Logger;
  },
  deliver: <T>(source: Observable<T>) => Observable<T> = (source) => source,
): StrategyContext<unknown> {
  return {
    params: run.params,
    market: run.market,
    book$: deliver(io.book$),
    balances$: deliver(io.balances$),
    orders$: deliver(run.orders$.asObservable()),
    fills$: deliver(run.fills$.asObservable()),
    trades$: deliver(io.trades$),
    candles: (periodMs) => deliver(io.trades$.pipe(candles(periodMs, { scheduler: io.scheduler, closeAfterMs: io.candleCloseAfterMs }))),
    scheduler: io.scheduler,
    clock: io.clock,
    log: io.logger.child({ strategy: run.id }),
    id: run.id,
  };
}
