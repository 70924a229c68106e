import { D, type Decimal } from '../../src/model/decimal.js';
import type { Balances } from '../../src/model/balance.js';
import type { OrderBook } from '../../src/model/book.js';
import type { Market } from '../../src/model/market.js';
import type { ExecutedOrder } from '../../src/model/executed-order.js';
import type { Deal, Order } from '../../src/model/order.js';
import { InnerValidationError } from '../../src/venue/errors.js';
import type { TradingApi } from '../../src/venue/trading-api.js';

/**
 * A minimal in-memory venue implementing our own TradingApi (a test double of our interface, not a mock of a
 * library): orders rest until the test fills or cancels them; every answer is an immediately resolved promise.
 */
/** The venue's record of a limit order just placed from `r`, nothing executed. */
export function restingOrder(orderId: number, r: Parameters<TradingApi['placeLimit']>[0]): Order {
  return {
    orderId,
    clientOrderId: r.clientOrderId ?? '',
    market: r.market,
    side: r.side,
    kind: 'limit',
    timestamp: 0,
    amount: r.amount,
    price: r.price,
    left: r.amount,
    dealStock: D(0),
    dealMoney: D(0),
    dealFee: D(0),
    postOnly: r.postOnly ?? false,
    ioc: false,
    rpi: false,
    stp: 'no',
    status: 'NEW',
  };
}

export class FakeVenue implements TradingApi {
  book: OrderBook;
  readonly orders = new Map<string, Order>();
  readonly dealList: Deal[] = [];
  /** Orders that finished (filled, or cancelled), newest last: the executed-orders history lists those that traded. */
  readonly finished: Order[] = [];
  readonly calls: string[] = [];
  private nextId = 1;
  private nextDeal = 1;

  constructor(
    readonly market: Market,
    bid: string,
    ask: string,
  ) {
    this.book = FakeVenue.bookAt(market.name, bid, ask);
  }

  static bookAt(market: string, bid: string, ask: string): OrderBook {
    return { market, timestamp: 0, bids: [{ price: D(bid), amount: D(10) }], asks: [{ price: D(ask), amount: D(10) }] };
  }

  async ping() {
    return true;
  }
  async markets() {
    return [this.market];
  }
  async orderBook() {
    this.calls.push('orderBook');
    return this.book;
  }
  async tradeBalance(): Promise<Balances> {
    return { [this.market.stock]: { available: D(1000), freeze: D(0) }, [this.market.money]: { available: D(1_000_000), freeze: D(0) } };
  }
  async placeLimit(r: Parameters<TradingApi['placeLimit']>[0]): Promise<Order> {
    this.calls.push(`place ${r.clientOrderId}`);
    const o = restingOrder(this.nextId++, r);
    this.orders.set(o.clientOrderId, o);
    return o;
  }
  async placeStopLimit(): Promise<Order> {
    throw new Error('not used');
  }
  async cancel(r: Parameters<TradingApi['cancel']>[0]): Promise<Order> {
    const o = [...this.orders.values()].find((x) => x.clientOrderId === r.clientOrderId || x.orderId === r.orderId);
    this.calls.push(`cancel ${o?.clientOrderId ?? '?'}`);
    if (!o) throw new InnerValidationError('Inner validation failed', { endpoint: '/api/v4/order/cancel', status: 400, venueCode: 2 });
    this.orders.delete(o.clientOrderId);
    const cancelled = { ...o, status: 'CANCELED' };
    this.finished.push(cancelled);
    return cancelled;
  }
  async orderHistory(q: { clientOrderId?: string } = {}): Promise<ExecutedOrder[]> {
    return this.finished
      .filter((o) => o.dealStock.gt(0) && (q.clientOrderId === undefined || o.clientOrderId === q.clientOrderId))
      .map((o) => ({ ...o, finishedAt: 0, makerFee: D('0.001'), takerFee: D('0.001'), feeAsset: this.market.money }));
  }
  async openOrders(q: Parameters<TradingApi['openOrders']>[0] = {}): Promise<Order[]> {
    const all = [...this.orders.values()].filter((o) => q.clientOrderId === undefined || o.clientOrderId === q.clientOrderId);
    return all.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 50));
  }
  async deals(q: Parameters<TradingApi['deals']>[0] = {}): Promise<Deal[]> {
    const all = this.dealList.filter((d) => q.clientOrderId === undefined || d.clientOrderId === q.clientOrderId).reverse();
    return all.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
  }

  /** Fills `amount` of a resting order at its price (maker, fee 0.1 % of the money). */
  fill(clientOrderId: string, amount: Decimal, timeSec: number): Deal {
    const o = this.orders.get(clientOrderId);
    if (!o) throw new Error(`no order ${clientOrderId}`);
    const deal: Deal = {
      id: this.nextDeal++,
      time: timeSec,
      market: o.market,
      side: o.side,
      role: 'maker',
      amount,
      price: o.price,
      deal: amount.times(o.price),
      fee: amount.times(o.price).times('0.001'),
      orderId: o.orderId,
      clientOrderId,
    };
    this.dealList.push(deal);
    const left = o.left.minus(amount);
    const after = { ...o, left, dealStock: o.dealStock.plus(amount), dealMoney: o.dealMoney.plus(deal.deal), dealFee: o.dealFee.plus(deal.fee) };
    if (left.isZero()) {
      this.orders.delete(clientOrderId);
      this.finished.push({ ...after, status: 'FILLED' });
    } else this.orders.set(clientOrderId, after);
    return deal;
  }
}
