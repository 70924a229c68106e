import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from 'pino';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import type { Candle } from '../model/candle.js';
import type { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Deal, OrderTerms } from '../model/order.js';

/** Engine-side lifecycle of an order (see engine/order-tracker). UNKNOWN: submitted, outcome not known yet. */
export type OrderState = 'pending' | 'open' | 'partially-filled' | 'filled' | 'canceled' | 'rejected' | 'unknown';

/** One of the strategy's own orders as the engine tracks it: its terms (the OrderRequest's) and what is known of its fate. */
export interface OwnOrder extends Pick<OrderTerms, 'market' | 'side' | 'kind' | 'price' | 'activationPrice' | 'amount'> {
  readonly clientOrderId: string;
  /** Venue id once known. */
  readonly orderId?: number | undefined;
  /** Remaining amount. */
  readonly left: Decimal;
  readonly state: OrderState;
  readonly tag?: string | undefined;
  /** Engine clock, ms. */
  readonly updatedAt: number;
  /** True once a cancel of this order has been sent and its outcome is not known yet (ordersToTargets skips it). */
  readonly cancelRequested?: boolean | undefined;
}

/** Time as the strategy must see it: injected, virtual in backtests. Never `Date.now()`. */
export interface Clock {
  /** Milliseconds since the Unix epoch, on the engine's scheduler. */
  now(): number;
}

/** Everything a strategy can see. Live, sim and backtest differ only in how this is built. */
export interface StrategyContext<P> {
  /** Validated params, defaults applied. */
  readonly params: P;
  /** The market's rules (steps, minimums, fees). */
  readonly market: Market;
  /**
   * Order book snapshots of `market`, as polled and found sane (multicast, latest replayed to late subscribers): a
   * crossed, non-positive or unconfirmed jumping book never comes, nor any book while the market is stale
   * (docs/market-data.md).
   */
  readonly book$: Observable<OrderBook>;
  /** Trade balance snapshots of the account. */
  readonly balances$: Observable<Balances>;
  /** The strategy's own live orders (pending, open, partially filled, unknown) after every change. */
  readonly orders$: Observable<readonly OwnOrder[]>;
  /** The strategy's own fills, each deal once. */
  readonly fills$: Observable<Deal>;
  /**
   * The market's public trades (everyone's), each once, oldest first: from the venue's recent-trades endpoint,
   * polled only while something listens (at the book's period, at least 1 s apart; the first poll gives the trades
   * the venue still lists, up to 100); in a backtest, the recording's trades (none from a recording without them).
   */
  readonly trades$: Observable<PublicTrade>;
  /**
   * OHLCV candles of `periodMs` (a whole number of ms) built from `trades$` by strategy/candles.ts: a candle is given
   * when a later trade arrives or a few poll periods after its period's end on the engine's clock, a period without
   * trades gives a flat candle, and the same trades give the same candles live and in a backtest. Each call starts
   * its own candles (share one with `share()` when several parts of a strategy need them).
   */
  candles(periodMs: number): Observable<Candle>;
  /** Schedule timers with this (e.g. `interval(1000, ctx.scheduler)`). */
  readonly scheduler: SchedulerLike;
  readonly clock: Clock;
  readonly log: Logger;
  /** The strategy instance id from config (unique per daemon). */
  readonly id: string;
}
