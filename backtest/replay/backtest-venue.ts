/**
 * `BacktestVenue implements TradingApi`: what the daemon's engine talks to in a backtest, on virtual
 * time. Every call:
 *  1. waits for room in the venue's rate-limit buckets — the REST client's own `RateLimiter`
 *     (sliding windows, shared buckets), driven by the virtual clock, so polling and orders share the
 *     budget exactly as live;
 *  2. travels `latency.requestMs` to the venue, where it acts on the state at ARRIVAL time (the
 *     recorded book current then, the account's orders and balances);
 *  3. travels `latency.responseMs` back before its promise settles.
 * Rejections use the same error classes and codes as the REST client raises against the venue:
 * rule violations (src/rules, the same check the simulated exchange runs) → RequestValidationError
 * 422 with the first violation's code; balance and post-only → InnerValidationError 400 code 10;
 * cancelling an unknown order → InnerValidationError 400 code 2.
 * The order book is served from the recorded levels as recorded: `limit` cuts them, `level`
 * (aggregation) is not applied (record with the aggregation you want to backtest).
 */
import type { SchedulerLike } from 'rxjs';
import type { Balances } from '../../src/model/balance.js';
import type { OrderBook, PublicTrade } from '../../src/model/book.js';
import type { Market } from '../../src/model/market.js';
import type { Deal, Order } from '../../src/model/order.js';
import { toErrorsMap, validateOrder } from '../../src/rules/index.js';
import { InnerValidationError, PublicApiError, RequestValidationError } from '../../src/venue/errors.js';
import { RateLimiter, type AdmittedSlot, type BucketStats } from '../../src/venue/rate-limiter.js';
import type {
  CancelRequest,
  DealsQuery,
  OpenOrdersQuery,
  OrderBookQuery,
  PlaceLimitRequest,
  PlaceStopLimitRequest,
  TradingApi,
} from '../../src/venue/trading-api.js';
import { PATHS, type EndpointName } from '../../src/venue/wire.js';
import type { RecentTrades } from './recent-trades.js';
import type { VirtualExchange } from './virtual-exchange.js';
import { isStepping, trip, Route, type Leg } from './venue-trip.js';

export interface LatencyModel {
  /** Client → venue, ms. Default 25. */
  readonly requestMs: number;
  /** Venue → client, ms. Default 25. */
  readonly responseMs: number;
}

export interface BacktestVenueOptions {
  readonly exchange: VirtualExchange;
  readonly scheduler: SchedulerLike;
  readonly latency?: LatencyModel;
  /** Apply the venue's rate limits (default true). */
  readonly rateLimits?: boolean;
  /** The recording's trades: the venue then has the recent-trades endpoint (`publicTrades`); without, it has none. */
  readonly trades?: RecentTrades | undefined;
}

export class BacktestVenue implements TradingApi {
  readonly exchange: VirtualExchange;
  readonly #limiter: RateLimiter | undefined;
  /** What every trip of this venue shares (one record, not copied into each request). */
  readonly #leg: Leg;
  /** Each endpoint's request count and admission lane, looked up by name once (a property), not per request. */
  readonly #routes: Record<EndpointName, Route>;
  /** The routes asked so far, in the order of their first request (the order `calls` lists them in). */
  readonly #used: Route[] = [];
  /**
   * The recent-trades endpoint, when the recording has trades (a venue without it is what a recording without
   * trades can stand for: the engine then never asks, as before).
   */
  readonly publicTrades?: (market: string) => Promise<PublicTrade[]>;

  constructor(options: BacktestVenueOptions) {
    this.exchange = options.exchange;
    const latency = options.latency ?? { requestMs: 25, responseMs: 25 };
    const scheduler = options.scheduler;
    const limiter =
      options.rateLimits === false
        ? undefined
        : new RateLimiter({
            // No safety margin: the virtual clock has no jitter.
            marginMs: 0,
            clock: {
              now: () => scheduler.now(),
              setTimer: (ms, fn) => {
                const sub = scheduler.schedule(fn, Math.max(0, ms));
                return () => sub.unsubscribe();
              },
            },
          });
    this.#limiter = limiter;
    this.#leg = { scheduler, stepping: isStepping(scheduler), requestMs: latency.requestMs, responseMs: latency.responseMs, limiter };
    this.#routes = Object.fromEntries((Object.keys(PATHS) as EndpointName[]).map((endpoint) => [endpoint, new Route(endpoint)])) as Record<EndpointName, Route>;
    const trades = options.trades;
    if (trades !== undefined) {
      this.publicTrades = (market) =>
        this.#call(this.#routes.publicTrades, () => {
          if (market !== this.exchange.market.name) {
            throw withoutStack(() => new PublicApiError('Market is not available.', { endpoint: `${PATHS.publicTrades}/${market}`, status: 422 }));
          }
          return trades.page();
        });
    }
  }

  /** Made once: the rules ask it on every order. */
  readonly #isClientOrderIdUsed = (id: string): boolean => this.exchange.account.isClientOrderIdUsed(id);

  /** Requests per endpoint (the report's budget use), in the order of each endpoint's first request. */
  get calls(): ReadonlyMap<EndpointName, number> {
    return new Map(this.#used.map((r) => [r.endpoint, r.calls]));
  }

  limiterStats(): BucketStats[] {
    return this.#limiter?.stats() ?? [];
  }

  ping(): Promise<boolean> {
    return this.#call(this.#routes.ping, () => true);
  }

  markets(): Promise<Market[]> {
    return this.#call(this.#routes.markets, () => [this.exchange.market]);
  }

  orderBook(market: string, query?: OrderBookQuery): Promise<OrderBook> {
    return this.#call(this.#routes.orderbook, () => {
      const s = this.exchange.snapshot;
      if (market !== this.exchange.market.name || s === undefined) {
        throw withoutStack(() => new PublicApiError('Market is not available.', { endpoint: `${PATHS.orderbook}/${market}`, status: 422 }));
      }
      return s.toOrderBook(market, query?.limit);
    });
  }

  tradeBalance(ticker?: string): Promise<Balances> {
    return this.#call(this.#routes.tradeBalance, () => {
      const all = this.exchange.tradeBalances();
      if (ticker === undefined) return all;
      const one = all[ticker];
      return one === undefined ? {} : { [ticker]: one };
    });
  }

  placeLimit(r: PlaceLimitRequest): Promise<Order> {
    return this.#call(this.#routes.orderNew, () => {
      this.#validate(PATHS.orderNew, r, 'limit');
      const res = this.exchange.placeLimit(r);
      if (res.ok) return res.order;
      throw this.#placeRejected(PATHS.orderNew, res.reason, res.message);
    });
  }

  placeStopLimit(r: PlaceStopLimitRequest): Promise<Order> {
    return this.#call(this.#routes.orderStopLimit, () => {
      this.#validate(PATHS.orderStopLimit, r, 'stop-limit');
      const res = this.exchange.placeStopLimit(r);
      if (res.ok) return res.order;
      if (res.reason === 'balance') {
        throw withoutStack(
          () =>
            new RequestValidationError('Validation failed', {
              endpoint: PATHS.orderStopLimit,
              status: 422,
              venueCode: 32,
              errors: { amount: ['Not enough balance.'] },
            }),
        );
      }
      throw this.#placeRejected(PATHS.orderStopLimit, res.reason, res.message);
    });
  }

  cancel(r: CancelRequest): Promise<Order> {
    return this.#call(this.#routes.orderCancel, () => {
      const by = r.orderId !== undefined ? { orderId: r.orderId } : { clientOrderId: r.clientOrderId ?? '' };
      const o = r.market === this.exchange.market.name ? this.exchange.cancel(by) : undefined;
      if (o !== undefined) return o;
      throw withoutStack(
        () =>
          new InnerValidationError('Inner validation failed', {
            endpoint: PATHS.orderCancel,
            status: 400,
            venueCode: 2,
            errors: { orderId: ['Unexecuted order was not found.'] },
          }),
      );
    });
  }

  // The queries are rebuilt field by field, not as `{ ...q, limit }`: a spread followed by a key takes V8's slow
  // path, and the deals query runs every second of a replay.
  openOrders(q?: OpenOrdersQuery): Promise<Order[]> {
    const query: OpenOrdersQuery = {
      market: q?.market,
      orderId: q?.orderId,
      clientOrderId: q?.clientOrderId,
      offset: q?.offset,
      limit: Math.min(q?.limit ?? 50, 100),
    };
    return this.#call(this.#routes.orders, () => this.exchange.openOrders(query));
  }

  deals(q?: DealsQuery): Promise<readonly Deal[]> {
    const query: DealsQuery = { market: q?.market, clientOrderId: q?.clientOrderId, offset: q?.offset, limit: Math.min(q?.limit ?? 100, 100) };
    return this.#call(this.#routes.executedHistory, () => this.exchange.deals(query));
  }

  #validate(endpoint: string, r: PlaceLimitRequest | PlaceStopLimitRequest, kind: 'limit' | 'stop-limit'): void {
    const market = r.market === this.exchange.market.name ? this.exchange.market : undefined;
    // The request itself: the rules read only its fields, which are those of the wire's body (an absent flag reads
    // as undefined, as an absent key does). The Decimals themselves, not their wire text: the rules take a finite
    // Decimal as the value its text (fmt, what the REST client sends) reads back to, and a non-finite one as not a
    // number, as its text is. The gate's order, validated there, is then checked for its id's uniqueness only (see
    // src/rules/validated-orders.ts).
    const violations = validateOrder(market, r, { kind, isClientOrderIdUsed: this.#isClientOrderIdUsed });
    const first = violations[0];
    if (first === undefined) return;
    this.exchange.rejections.set(`code-${first.code}`, (this.exchange.rejections.get(`code-${first.code}`) ?? 0) + 1);
    throw withoutStack(
      () => new RequestValidationError('Validation failed', { endpoint, status: 422, venueCode: first.code, errors: toErrorsMap(violations) }),
    );
  }

  #placeRejected(endpoint: string, reason: string, message: string): InnerValidationError {
    const key = reason === 'balance' ? 'amount' : reason === 'post-only' ? 'postOnly' : 'order';
    return withoutStack(() => new InnerValidationError('Inner validation failed', { endpoint, status: 400, venueCode: 10, errors: { [key]: [message] } }));
  }

  /** Rate limit, request latency, act at arrival, response latency. */
  #call<T>(route: Route, act: () => T): Promise<T> {
    if (route.calls++ === 0) this.#used.push(route);
    const limiter = this.#limiter;
    if (limiter === undefined) return trip(this.#leg, act, undefined);
    // Admitted at once (the usual case): the trip itself releases the slot when it settles, without the promise the
    // limiter's schedule wraps around each request for that.
    let slot: AdmittedSlot | undefined;
    try {
      // the lane is made on the endpoint's first request, as admitNow(endpoint) made it (the order of stats)
      slot = limiter.admitNowOn((route.lane ??= limiter.laneFor(route.endpoint)));
    } catch (error) {
      return Promise.reject(error);
    }
    return slot !== undefined ? trip(this.#leg, act, slot) : limiter.schedule(route.endpoint, () => trip(this.#leg, act, undefined));
  }
}

/**
 * A venue's refusal, made without a stack trace: it is an answer, as a REST client makes it from a response, and a
 * stack would only show this file's arrival code. A replay makes thousands (every cancel that finds its order
 * already filled), and capturing a stack is most of an error's cost.
 */
function withoutStack<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
