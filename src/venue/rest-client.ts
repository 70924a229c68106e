import type { Balances, MainBalances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import type { Market } from '../model/market.js';
import type { Deal, Order } from '../model/order.js';
import type { AssetInfo, CreateCodeRequest, CreatedCode, InvestmentsPage, InvestmentsQuery, KillSwitchState, TransferRequest } from './account-records.js';
import type { ExecutedOrder } from '../model/executed-order.js';
import type { BulkPlaceOptions, BulkPlaceResult, OrderHistoryQuery } from './bulk-records.js';
import { BulkOutcomeUnknownError, OutcomeUnknownError, RequestValidationError } from './errors.js';
import { parseBulkResults } from './parse-bulk.js';
import { parseOrderHistory } from './parse-executed-order.js';
import { parseAssets, parseCreatedCode, parsePing } from './parse-account.js';
import { parseKillSwitch, parseKillSwitchStatus } from './parse-kill-switch.js';
import { parseMainBalance, parseTradeBalance } from './parse-balance.js';
import { parseOrderBook } from './parse-book.js';
import { parsePublicTrades } from './parse-public-trades.js';
import { parseDeals } from './parse-deal.js';
import { parseInvestments } from './parse-investments.js';
import { parseMarkets } from './parse-market.js';
import { parseOrder, parseOrders } from './parse-order.js';
import type { BucketStats } from './rate-limiter.js';
import type { ResolvedRestClientOptions, RestClientOptions } from './rest-client-options.js';
import * as ser from './serialize-request.js';
import type { CancelRequest, DealsQuery, OpenOrdersQuery, OrderBookQuery, PlaceLimitRequest, PlaceStopLimitRequest, TradingApi } from './trading-api.js';
import { VenueCaller } from './venue-caller.js';
import { PATHS, type KillSwitchOrderType } from './wire.js';

/**
 * The v4 REST client: every endpoint of api-v4.md and exchange-facts §6, signed, rate-limited,
 * retried where safe, answers parsed into Decimal domain types, failures as VenueErrors.
 *
 * Retries follow retry-policy.ts: reads on network errors, 5xx and 429; order creation only when
 * the venue surely did not act, else OutcomeUnknownError carrying the client order id.
 * Cancel is treated as idempotent: it is retried like a read. A retry whose first attempt did reach
 * the venue answers "not found" (InnerValidationError, venueCode 2); callers treat that as "already
 * gone" and learn the final state from open orders and deals.
 *
 * Order creation without a clientOrderId works, but an unknown outcome can then only be reconciled
 * by market, side, price and amount (OutcomeUnknownError.clientOrderId is ''): always give one.
 */
export class RestClient implements TradingApi {
  readonly options: ResolvedRestClientOptions;
  /** Signing, rate limiting, retries and reading answers (venue-caller.ts); this class names the endpoints. */
  private readonly caller: VenueCaller;

  constructor(options: RestClientOptions = {}) {
    this.caller = new VenueCaller(options);
    this.options = this.caller.options;
  }

  // ------------------------------------------------------------ public

  async ping(): Promise<boolean> {
    return this.caller.call({ endpoint: 'ping', path: PATHS.ping, family: 'public', policy: 'read', parse: parsePing });
  }

  async markets(): Promise<Market[]> {
    return this.caller.call({ endpoint: 'markets', path: PATHS.markets, family: 'public', policy: 'read', parse: parseMarkets });
  }

  async assets(): Promise<Record<string, AssetInfo>> {
    return this.caller.call({ endpoint: 'assets', path: PATHS.assets, family: 'public', policy: 'read', parse: parseAssets });
  }

  async orderBook(market: string, query: OrderBookQuery = {}): Promise<OrderBook> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.level !== undefined) params.set('level', String(query.level));
    const qs = params.size > 0 ? `?${params.toString()}` : '';
    const path = `${PATHS.orderbook}/${encodeURIComponent(market)}`;
    return this.caller.call({ endpoint: 'orderbook', path, query: qs, market, family: 'public', policy: 'read', parse: parseOrderBook });
  }

  /** The market's last 100 public trades, newest first (exchange-facts §6); `type` keeps one taker side. */
  async publicTrades(market: string, query: { readonly type?: 'buy' | 'sell' } = {}): Promise<PublicTrade[]> {
    const qs = query.type === undefined ? '' : `?type=${query.type}`;
    const path = `${PATHS.publicTrades}/${encodeURIComponent(market)}`;
    return this.caller.call({
      endpoint: 'publicTrades',
      path,
      query: qs,
      market,
      family: 'public',
      policy: 'read',
      parse: (raw, endpoint) => parsePublicTrades(raw, endpoint, market),
    });
  }

  // ------------------------------------------------------------ trading

  async tradeBalance(ticker?: string): Promise<Balances> {
    const fields = ticker === undefined ? {} : { ticker };
    return this.caller.call({ endpoint: 'tradeBalance', path: PATHS.tradeBalance, family: 'trading', policy: 'read', fields, parse: parseTradeBalance });
  }

  async placeLimit(request: PlaceLimitRequest): Promise<Order> {
    return this.caller.call({
      endpoint: 'orderNew',
      path: PATHS.orderNew,
      family: 'trading',
      policy: 'create',
      fields: ser.serializeLimitOrder(request, this.options.dialect),
      clientOrderId: request.clientOrderId ?? '',
      parse: parseOrder,
    });
  }

  async placeStopLimit(request: PlaceStopLimitRequest): Promise<Order> {
    return this.caller.call({
      endpoint: 'orderStopLimit',
      path: PATHS.orderStopLimit,
      family: 'trading',
      policy: 'create',
      fields: ser.serializeStopLimitOrder(request, this.options.dialect),
      clientOrderId: request.clientOrderId ?? '',
      parse: parseOrder,
    });
  }

  async cancel(request: CancelRequest): Promise<Order> {
    const fields = ser.serializeCancel(request);
    return this.caller.call({ endpoint: 'orderCancel', path: PATHS.orderCancel, family: 'trading', policy: 'read', fields, parse: parseOrder });
  }

  async openOrders(query: OpenOrdersQuery = {}): Promise<Order[]> {
    const fields = ser.serializeOpenOrders(query);
    return this.caller.call({ endpoint: 'orders', path: PATHS.orders, family: 'trading', policy: 'read', fields, parse: parseOrders });
  }

  async deals(query: DealsQuery = {}): Promise<Deal[]> {
    const fields = ser.serializeDeals(query);
    const parse = (raw: unknown, endpoint: string): Deal[] => parseDeals(raw, query.market, endpoint);
    return this.caller.call({ endpoint: 'executedHistory', path: PATHS.executedHistory, family: 'trading', policy: 'read', fields, parse });
  }

  /**
   * Sets or resets (seconds 5-600) or deletes (null) the market's dead-man timer (wire/kill-switch.ts): when it
   * runs out, the venue cancels the account's orders in that market. Returns the timer, null after deleting.
   * Repeating it cannot do harm, so it is retried like a read.
   */
  async killSwitch(market: string, timeoutSec: number | null, types?: readonly KillSwitchOrderType[]): Promise<KillSwitchState | null> {
    const fields = ser.serializeKillSwitch(market, timeoutSec, types);
    return this.caller.call({ endpoint: 'killSwitch', path: PATHS.killSwitch, family: 'trading', policy: 'read', fields, parse: parseKillSwitch });
  }

  /** The account's running dead-man timers, of `market` or of every market. */
  async killSwitchStatus(market?: string): Promise<KillSwitchState[]> {
    const fields = market === undefined ? {} : { market };
    return this.caller.call({
      endpoint: 'killSwitchStatus',
      path: PATHS.killSwitchStatus,
      family: 'trading',
      policy: 'read',
      fields,
      parse: parseKillSwitchStatus,
    });
  }

  // ------------------------------------------------------------ batch endpoints (wire/order-batch.ts)

  /**
   * Up to 20 limit orders in one request (one rate-limit slot), each checked by the venue like order/new.
   * One result per order, in order (see parseBulkResults). Retried only when the venue surely did not act;
   * when it may have (dropped connection, timeout, 5xx, malformed answer), BulkOutcomeUnknownError names
   * every client order id: reconcile each, never resubmit.
   */
  async placeLimitBulk(requests: readonly PlaceLimitRequest[], options: BulkPlaceOptions = {}): Promise<BulkPlaceResult[]> {
    const ids = requests.map((r) => r.clientOrderId ?? '');
    try {
      return await this.caller.call({
        endpoint: 'orderBulk',
        path: PATHS.orderBulk,
        family: 'trading',
        policy: 'create',
        fields: ser.serializeBulkOrders(requests, this.options.dialect, options.stopOnFail),
        clientOrderId: ids.join(','),
        parse: (raw, endpoint) => parseBulkResults(raw, ids, endpoint, options.stopOnFail === true),
      });
    } catch (error) {
      if (error instanceof OutcomeUnknownError) {
        throw new BulkOutcomeUnknownError(
          `${PATHS.orderBulk}: the ${ids.length} orders may or may not have been placed (${String(error.cause instanceof Error ? error.cause.message : error.message)}); reconcile each by client order id`,
          ids,
          {
            endpoint: PATHS.orderBulk,
            ...(error.status !== undefined ? { status: error.status } : {}),
            cause: error.cause,
          },
        );
      }
      throw error;
    }
  }

  /** Cancels every open order of the account in `market` (stop orders too). Idempotent, so retried like a read. */
  async cancelAll(market: string): Promise<void> {
    await this.caller.call({
      endpoint: 'orderCancelAll',
      path: PATHS.orderCancelAll,
      family: 'trading',
      policy: 'read',
      fields: { market },
      parse: () => undefined,
    });
  }

  /** The account's executed orders (fully or partly traded, then finished), newest finished first. */
  async orderHistory(query: OrderHistoryQuery = {}): Promise<ExecutedOrder[]> {
    const fields = ser.serializeOrderHistory(query);
    try {
      return await this.caller.call({
        endpoint: 'orderHistory',
        path: PATHS.orderHistory,
        family: 'trading',
        policy: 'read',
        fields,
        parse: parseOrderHistory,
      });
    } catch (error) {
      // A single-order lookup by an unknown client order id answers 422 "OrderHistory was not found." (the docs): no such order.
      if (error instanceof RequestValidationError && Object.values(error.errors).some((m) => m.includes('OrderHistory was not found.'))) return [];
      throw error;
    }
  }

  // ------------------------------------------------------------ main account

  async mainBalance(): Promise<MainBalances> {
    return this.caller.call({ endpoint: 'mainBalance', path: PATHS.mainBalance, family: 'mainAccount', policy: 'read', fields: {}, parse: parseMainBalance });
  }

  /** Moves funds between the main and the trade (spot) balance. Not retried when its outcome is uncertain. */
  async transfer(request: TransferRequest): Promise<void> {
    const fields = ser.serializeTransfer(request);
    await this.caller.call({ endpoint: 'transfer', path: PATHS.transfer, family: 'mainAccount', policy: 'once', fields, parse: () => undefined });
  }

  /** Creates a code from the main balance. The result's `code` is a bearer secret: print once, never log. */
  async createCode(request: CreateCodeRequest): Promise<CreatedCode> {
    const fields = ser.serializeCreateCode(request);
    return this.caller.call({ endpoint: 'codes', path: PATHS.codes, family: 'mainAccount', policy: 'once', fields, parse: parseCreatedCode });
  }

  /** Fixed-plan investment history (business partner keys only; others get AuthError 403). */
  async investments(query: InvestmentsQuery = {}): Promise<InvestmentsPage> {
    const fields = ser.serializeInvestments(query);
    return this.caller.call({ endpoint: 'investments', path: PATHS.investments, family: 'mainAccount', policy: 'read', fields, parse: parseInvestments });
  }

  // ------------------------------------------------------------ housekeeping

  /** Queue depth, in-window count, limit and waiting time per rate-limit bucket. */
  limiterStats(): BucketStats[] {
    return this.caller.limiterStats();
  }

  /** Closes idle keep-alive sockets; the last client of a shared rate limiter closes it (its queued calls reject). */
  close(): void {
    this.caller.close();
  }
}
