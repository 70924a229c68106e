import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import type { Market } from '../model/market.js';
import type { Deal, LimitOrderRequest, Order, StopLimitOrderRequest } from '../model/order.js';
import type { ExecutedOrder } from '../model/executed-order.js';
import type { BulkPlaceOptions, BulkPlaceResult, OrderHistoryQuery } from './bulk-records.js';

/** order/new: a limit OrderRequest (model/order.ts); its kind is the endpoint's. A gated order is passed as it is. */
export type PlaceLimitRequest = Omit<LimitOrderRequest, 'kind'>;

/** order/stop_limit: a stop-limit OrderRequest; its kind is the endpoint's. */
export type PlaceStopLimitRequest = Omit<StopLimitOrderRequest, 'kind'>;

/** Exactly one of orderId / clientOrderId. */
export interface CancelRequest {
  readonly market: string;
  readonly orderId?: number;
  readonly clientOrderId?: string;
}

export interface OpenOrdersQuery {
  readonly market?: string | undefined;
  readonly orderId?: number | undefined;
  readonly clientOrderId?: string | undefined;
  /** <= 100, default 50. */
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface DealsQuery {
  readonly market?: string | undefined;
  readonly clientOrderId?: string | undefined;
  /** <= 100. */
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface OrderBookQuery {
  /** 0-100; 0 or absent = 100 a side. */
  readonly limit?: number;
  /** Aggregation 0-5. */
  readonly level?: number;
}

/**
 * What the engine and the streams need from a venue, in domain types. Implemented by the REST client
 * (live exchange or the simulated exchange over HTTP) and by the backtest's virtual-time venue, so the
 * same engine code runs in all three. Failures reject with the VenueError hierarchy of ./errors.ts.
 */
export interface TradingApi {
  ping(): Promise<boolean>;
  markets(): Promise<Market[]>;
  orderBook(market: string, query?: OrderBookQuery): Promise<OrderBook>;
  tradeBalance(ticker?: string): Promise<Balances>;
  placeLimit(request: PlaceLimitRequest): Promise<Order>;
  placeStopLimit(request: PlaceStopLimitRequest): Promise<Order>;
  cancel(request: CancelRequest): Promise<Order>;
  /** The account's open (unexecuted) orders, newest first. Used to reconcile UNKNOWN orders. */
  openOrders(query?: OpenOrdersQuery): Promise<Order[]>;
  /**
   * The account's executed deals, newest first. How fills are learnt. Read-only: an implementation may hand out
   * the same frozen page again while nothing changed (the backtest venue does).
   */
  deals(query?: DealsQuery): Promise<readonly Deal[]>;

  // Batch endpoints: optional, so a venue without them (the backtest's) still is a TradingApi; callers fall
  // back to one request per order when they are absent.
  /**
   * Up to 20 limit orders in one request; one result per order, in order. Rejects with
   * BulkOutcomeUnknownError when the request may have been acted on but no usable answer came.
   */
  placeLimitBulk?(requests: readonly PlaceLimitRequest[], options?: BulkPlaceOptions): Promise<BulkPlaceResult[]>;
  /** Cancels every open order of the account in `market`, stop orders included. */
  cancelAll?(market: string): Promise<void>;
  /**
   * The account's finished orders that traded (the executed-orders history); a look-up by client order id gives its
   * final record, whose `dealStock` is the executed amount: how reconcile settles an order the open-orders list no
   * longer shows, and checks deals against it. Optional: a venue without it settles from deals and cancels alone.
   */
  orderHistory?(query?: OrderHistoryQuery): Promise<ExecutedOrder[]>;
  /**
   * The market's recent public trades, newest first (exchange-facts §6). Optional: where a venue offers it, a jump of
   * the order book is believed only when the market traded there (engine/trade-evidence.ts).
   */
  publicTrades?(market: string): Promise<PublicTrade[]>;
}
