import { type Decimal, ZERO } from '../model/decimal.js';
import type { Deal, VenueOrderStatus } from '../model/order.js';
import type { Market } from '../model/market.js';
import type { AccountState } from './account-state.js';
import { Ledger } from './ledger.js';
import { type MatchHooks, matchIncoming } from './matching.js';
import { OrderBookSides } from './order-book.js';
import type { SimOrder } from './sim-order.js';
import type { SimTrade } from './sim-types.js';
import { StopOrders } from './stop-orders.js';

/** What a market needs from the exchange around it. */
export interface EngineContext {
  readonly ledger: Ledger;
  accountState(accountId: string): AccountState;
  nextDealId(): number;
  /** Event time: Unix seconds with a microsecond fraction, strictly increasing. */
  eventTime(): number;
  /** Called for every public trade (observers: flows, recorders). */
  publishTrade(trade: SimTrade): void;
}

/**
 * One market: its book, its untriggered stops, its last price, and the settlement of fills.
 *
 * Fees (exchange-facts: charged in the MONEY asset): the buyer pays deal + fee out of the money it
 * locked; the seller receives deal − fee. A buy locks amount × price × (1 + feeLock), where feeLock is
 * the highest rate the order can pay (the maker rate for post-only/rpi orders, which never take;
 * otherwise max(maker, taker)); whatever the fills did not spend returns to available when the order
 * finishes. A sell locks its amount of stock. Fees go to the ledger's fee pool, so funds are conserved
 * exactly: Σ(available + freeze + main) + fees + codes is constant per asset.
 */
export class MarketEngine {
  readonly book = new OrderBookSides();
  readonly stops = new StopOrders();
  lastPrice: Decimal | undefined;
  private tradeSeq = 0;
  private activating = false;
  private readonly hooks: MatchHooks;

  constructor(
    readonly market: Market,
    private readonly ctx: EngineContext,
  ) {
    this.hooks = { fill: (m, t, a) => this.fill(m, t, a), cancelResting: (o) => this.finish(o, 'CANCELED') };
  }

  /**
   * Matches a newly accepted (or just activated) order whose funds are already locked, then rests
   * it, or cancels the rest (ioc, self-trade prevention). Then fires stops the new last price triggers.
   */
  submit(order: SimOrder): void {
    const end = matchIncoming(this.book, order, this.hooks);
    if (end !== 'filled') {
      if (end === 'stp-cancel' || order.ioc) this.finish(order, 'CANCELED');
      else this.book.sideOf(order.side).add(order);
    }
    if (!this.activating) this.activateStops();
  }

  /** Parks an untriggered stop-limit order (its funds are already locked), or fires it at once. */
  submitStop(order: SimOrder): void {
    if (this.lastPrice !== undefined && StopOrders.triggers(order, this.lastPrice)) this.submit(order);
    else this.stops.add(order);
  }

  /** Fires every stop the last trade price triggers, including those that trades of fired stops trigger. */
  activateStops(): void {
    if (this.stops.size === 0 || this.lastPrice === undefined) return;
    this.activating = true;
    try {
      for (;;) {
        const fired = this.stops.takeTriggered(this.lastPrice);
        if (fired.length === 0) break;
        for (const o of fired) if (o.open) this.submit(o);
      }
    } finally {
      this.activating = false;
    }
  }

  /** Cancels an open order (resting or an untriggered stop). */
  cancel(order: SimOrder): void {
    if (!order.open) return;
    if (!this.book.sideOf(order.side).remove(order)) this.stops.remove(order);
    this.finish(order, 'CANCELED');
  }

  /** Ends an order's life: unspent lock back to available, status set, moved to the account's history. */
  finish(order: SimOrder, status: VenueOrderStatus): void {
    Ledger.release(order.lockCell, order.locked);
    order.locked = ZERO;
    order.status = status;
    order.open = false;
    this.ctx.accountState(order.accountId).finish(order);
  }

  private fill(maker: SimOrder, taker: SimOrder, amount: Decimal): void {
    const { ledger } = this.ctx;
    const m = this.market;
    const price = maker.price;
    const deal = amount.mul(price);
    const makerFee = m.makerFee.isZero() ? ZERO : deal.mul(m.makerFee);
    const takerFee = m.takerFee.isZero() ? ZERO : deal.mul(m.takerFee);
    const buyerIsMaker = maker.side === 'buy';
    const buyer = buyerIsMaker ? maker : taker;
    const seller = buyerIsMaker ? taker : maker;
    const buyerFee = buyerIsMaker ? makerFee : takerFee;
    const sellerFee = buyerIsMaker ? takerFee : makerFee;

    const spend = deal.add(buyerFee);
    buyer.lockCell.freeze = buyer.lockCell.freeze.sub(spend);
    buyer.locked = buyer.locked.sub(spend);
    const buyerStock = ledger.cell(buyer.accountId, m.stock);
    buyerStock.available = buyerStock.available.add(amount);

    seller.lockCell.freeze = seller.lockCell.freeze.sub(amount);
    seller.locked = seller.locked.sub(amount);
    const sellerMoney = ledger.cell(seller.accountId, m.money);
    sellerMoney.available = sellerMoney.available.add(sellerFee.isZero() ? deal : deal.sub(sellerFee));
    ledger.addFee(m.money, makerFee.add(takerFee));

    const time = this.ctx.eventTime();
    this.applyFill(maker, amount, deal, makerFee, 'maker', price, time);
    this.applyFill(taker, amount, deal, takerFee, 'taker', price, time);
    this.lastPrice = price;
    this.ctx.publishTrade({ id: ++this.tradeSeq, market: m.name, time: Math.round(time * 1000), price, amount, takerSide: taker.side });
  }

  private applyFill(o: SimOrder, amount: Decimal, deal: Decimal, fee: Decimal, role: Deal['role'], price: Decimal, time: number): void {
    o.left = o.left.sub(amount);
    o.dealStock = o.dealStock.add(amount);
    o.dealMoney = o.dealMoney.add(deal);
    o.dealFee = o.dealFee.add(fee);
    const state = this.ctx.accountState(o.accountId);
    state.addDeal({
      id: this.ctx.nextDealId(),
      time,
      market: o.market,
      side: o.side,
      role,
      amount,
      price,
      deal,
      fee,
      orderId: o.id,
      clientOrderId: o.clientOrderId,
    });
    if (o.left.isZero()) this.finish(o, 'FILLED');
    else o.status = 'PARTIALLY_FILLED';
  }
}
