/**
 * Test harness for strategies: drive a strategy on virtual time with the RxJS `TestScheduler`.
 *
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { createTestContext, marketFixture, bookFixture } from '../../src/strategy/testing.js';
 * import strategy from '../../strategies/my-strategy/index.js';
 *
 * const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
 * scheduler.run(({ cold, expectObservable }) => {
 *   const ctx = createTestContext({
 *     scheduler,                                        // timers in the strategy run on virtual time
 *     market: marketFixture(),                          // BTC_USDT-like rules
 *     params: strategy.params.parse({ spread: 0.002 }), // validated params with defaults applied
 *     book$: cold('a 999ms b', { a: bookFixture({ bid: '100', ask: '101' }), b: bookFixture({ bid: '102', ask: '103' }) }),
 *   });
 *   expectObservable(strategy.create(ctx)).toBe('...', { ... });
 * });
 * ```
 *
 * Streams not given default to: `book$`, `balances$`, `fills$`, `trades$` never emit; `orders$` emits `[]` once (no live
 * orders) and never completes, as the engine's does. `clock.now()` reads the scheduler's virtual time, the logger
 * is silent. Inside `scheduler.run(...)` time starts at 0; give `book$` etc. as `cold`/`hot` marbles.
 * To see what a strategy does once its orders rest, either pass an `orders$` that emits the orders you expect
 * (build them with `ownOrderFixture`), or close the loop with `createPaperOrders` (every intent takes effect at
 * once on `orders$`; `fill()` simulates fills):
 *
 * ```ts
 * const paper = createPaperOrders();
 * const ctx = createTestContext({ scheduler, market: marketFixture(), params, book$, orders$: paper.orders$ });
 * expectObservable(strategy.create(ctx).pipe(tap((intent) => paper.apply(intent)))).toBe(...);
 * ```
 */
import { NEVER, startWith, type Observable, type SchedulerLike } from 'rxjs';
import { pino, type Logger } from 'pino';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import { candles } from './candles.js';
import { D, type DecimalInput } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Deal } from '../model/order.js';
import type { Clock, OwnOrder, StrategyContext } from './context.js';

export { testParams } from './test-params.js';

export interface TestContextOptions<P> {
  readonly market: Market;
  /** Already validated params (e.g. `definition.params.parse({...})`). */
  readonly params: P;
  /** Usually a `TestScheduler`; anything implementing `SchedulerLike` with a `now()`. */
  readonly scheduler: SchedulerLike;
  readonly book$?: Observable<OrderBook>;
  readonly balances$?: Observable<Balances>;
  readonly orders$?: Observable<readonly OwnOrder[]>;
  readonly fills$?: Observable<Deal>;
  /** The market's public trades (build them with `tradeFixture`); `ctx.candles(periodMs)` is made from them. */
  readonly trades$?: Observable<PublicTrade>;
  /** How long a candle waits past its period for late trades, ms (the engine's: 3 trade polls). Default 3000. */
  readonly candleCloseAfterMs?: number;
  /** Default: the scheduler's `now()`. */
  readonly clock?: Clock;
  /** Default: a silent pino logger. */
  readonly log?: Logger;
  /** Default: `test`. */
  readonly id?: string;
}

/** A complete StrategyContext for tests; see the module comment. */
export function createTestContext<P>(options: TestContextOptions<P>): StrategyContext<P> {
  const { scheduler } = options;
  return {
    params: options.params,
    market: options.market,
    book$: options.book$ ?? NEVER,
    balances$: options.balances$ ?? NEVER,
    orders$: options.orders$ ?? NEVER.pipe(startWith([] as readonly OwnOrder[])),
    fills$: options.fills$ ?? NEVER,
    trades$: options.trades$ ?? NEVER,
    candles: (periodMs) => (options.trades$ ?? NEVER).pipe(candles(periodMs, { scheduler, closeAfterMs: options.candleCloseAfterMs ?? 3000 })),
    scheduler,
    clock: options.clock ?? { now: () => scheduler.now() },
    log: options.log ?? pino({ level: 'silent' }),
    id: options.id ?? 'test',
  };
}

/** A BTC_USDT-like market: 6 amount decimals, 2 price decimals, min amount 0.0001, min total 5, fees 0.1 %. */
export function marketFixture(overrides: Partial<Market> = {}): Market {
  return {
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    stockPrec: 6,
    moneyPrec: 2,
    minAmount: D('0.0001'),
    minTotal: D('5'),
    maxTotal: null,
    makerFee: D('0.001'),
    takerFee: D('0.001'),
    tradesEnabled: true,
    ...overrides,
  };
}

export interface BookFixtureOptions {
  /** Best bid price (omit for an empty bid side). */
  readonly bid?: DecimalInput;
  /** Best ask price (omit for an empty ask side). */
  readonly ask?: DecimalInput;
  /** Amount at each level. Default 1. */
  readonly amount?: DecimalInput;
  /** Levels per side, each one `tick` further from the touch. Default 1. */
  readonly depth?: number;
  /** Default 1 (absolute price units). */
  readonly tick?: DecimalInput;
  /** Default `BTC_USDT`. */
  readonly market?: string;
  /** Unix seconds. Default 0. */
  readonly timestamp?: number;
}

/** An order book snapshot with the given touch. */
export function bookFixture(options: BookFixtureOptions): OrderBook {
  const depth = options.depth ?? 1;
  const tick = D(options.tick ?? 1);
  const amount = D(options.amount ?? 1);
  const side = (top: DecimalInput | undefined, dir: 1 | -1) =>
    top === undefined ? [] : Array.from({ length: depth }, (_, i) => ({ price: D(top).plus(tick.times(i * dir)), amount }));
  return {
    market: options.market ?? 'BTC_USDT',
    timestamp: options.timestamp ?? 0,
    bids: side(options.bid, -1),
    asks: side(options.ask, 1),
  };
}

/** A live own limit order, as the engine would show it on `orders$`; `left` defaults to `amount`. */
export function ownOrderFixture(
  o: Pick<OwnOrder, 'clientOrderId' | 'side'> & { price: DecimalInput; amount: DecimalInput; left?: DecimalInput } & Partial<
      Omit<OwnOrder, 'price' | 'amount' | 'left'>
    >,
): OwnOrder {
  const { price, amount, left, ...rest } = o;
  return {
    market: 'BTC_USDT',
    kind: 'limit',
    state: 'open',
    updatedAt: 0,
    ...rest,
    price: D(price),
    amount: D(amount),
    left: D(left ?? amount),
  };
}

/** A public trade as `trades$` gives it: `time` in Unix ms, `amount` 1 and a buying taker unless given. */
export function tradeFixture(o: {
  id: number;
  time: number;
  price: DecimalInput;
  amount?: DecimalInput;
  takerSide?: 'buy' | 'sell';
  market?: string;
}): PublicTrade {
  const price = D(o.price);
  const amount = D(o.amount ?? 1);
  return { market: o.market ?? 'BTC_USDT', id: o.id, time: o.time, price, amount, value: price.mul(amount), takerSide: o.takerSide ?? 'buy' };
}

export { createPaperOrders } from './paper-orders.js';
export type { PaperOrders } from './paper-orders.js';
