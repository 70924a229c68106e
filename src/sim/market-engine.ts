import type { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { VenueOrderStatus } from '../model/order.js';
import type { Ledger } from './ledger.js';
import { type MatchHooks, matchIncoming } from './matching.js';
import { OrderBookSides } from './order-book.js';
import { Settlement } from './settlement.js';
import type { SimFill, SimOrder } from './sim-order.js';
import type { SimTrade } from './sim-types.js';
import { StopOrders } from './stop-orders.js';

/** What a market needs from the exchange around it. */
export interface EngineContext {
  readonly ledger: Ledger;
  /** Next fill id (the deal ids derive from it). */
  nextDealId(): number;
  /** Event time: Unix seconds with a microsecond fraction, strictly increasing. */
  eventTime(): number;
  /** True when someone observes trades (so trade records are only built when needed). */
  hasTradeListeners(): boolean;
  publishTrade(trade: SimTrade): void;
  /** Wall (or virtual) time in Unix seconds, for an order's finish time; unlike eventTime it takes no tick. */
  nowSeconds(): number;
}

/**
 * One market: its book, its untriggered stops, its last price, and the matching of orders whose funds the
 * settlement (settlement.ts: locks, maker and taker fees, release) holds and moves. Every fill is at the resting
 * order's price and settles both sides through the settlement, so Σ(available + freeze + main) + fees + codes
 * stays constant per asset, exactly.
 */
export class MarketEngine {
  readonly book = new OrderBookSides();
  readonly stops = new StopOrders();
  lastPrice: Decimal | undefined;
  private activating = false;
  private readonly hooks: MatchHooks;
  /** Locks, fees and release of this market's orders (the exchange locks through it when it accepts an order). */
  readonly settlement: Settlement;

  constructor(
    readonly market: Market,
    private readonly ctx: EngineContext,
  ) {
    this.hooks = { fill: (m, t, u) => this.fill(m, t, u), cancelResting: (o) => this.finish(o, 'CANCELED') };
    this.settlement = new Settlement(market, ctx.ledger);
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

  /**
   * Fills all of `taker` against the resting `maker`, at the maker's price, without walking the book: the paper venue's
   * fill model fills a client order against a counterparty the book does not show (unseen-taker.ts). The fill is
   * matching's own (`fill`: settlement, deals, tape, last price); then, as after matching, a filled maker leaves the
   * book, an ioc taker's rest is cancelled and the stops the new last price reaches fire.
   */
  fillResting(maker: SimOrder, taker: SimOrder): void {
    this.fill(maker, taker, taker.leftU < maker.leftU ? taker.leftU : maker.leftU);
    if (!maker.open) this.book.sideOf(maker.side).remove(maker);
    if (taker.open) this.finish(taker, 'CANCELED');
    if (!this.activating) this.activateStops();
  }

  /** Cancels an open order (resting or an untriggered stop). */
  cancel(order: SimOrder): void {
    if (!order.open) return;
    if (!this.book.sideOf(order.side).remove(order)) this.stops.remove(order);
    this.finish(order, 'CANCELED');
  }

  /** Ends an order's life: unspent lock back to available, status set, moved to the account's history. */
  finish(order: SimOrder, status: VenueOrderStatus): void {
    this.settlement.release(order);
    order.status = status;
    order.open = false;
    order.finishedAt = this.ctx.nowSeconds();
    order.state.finish(order);
  }

  private fill(maker: SimOrder, taker: SimOrder, units: bigint): void {
    const { ledger } = this.ctx;
    const m = this.market;
    const deal = this.settlement.notional(units, maker.ticksU);
    const makerFee = this.settlement.fill(maker, units, deal, 'maker');
    const takerFee = this.settlement.fill(taker, units, deal, 'taker');

    const fill: SimFill = {
      id: this.ctx.nextDealId(),
      time: this.ctx.eventTime(),
      market: m.name,
      price: maker.price,
      amountU: units,
      dealU: deal,
      makerFeeU: makerFee,
      takerFeeU: takerFee,
      maker,
      taker,
    };
    this.lastPrice = maker.price;
    maker.state.addDeal(fill, true);
    taker.state.addDeal(fill, false);
    this.applyFill(maker, units, deal, makerFee);
    this.applyFill(taker, units, deal, takerFee);
    if (this.ctx.hasTradeListeners()) {
      this.ctx.publishTrade({
        id: fill.id,
        market: m.name,
        time: Math.round(fill.time * 1000),
        price: maker.price,
        amount: ledger.decimal(units),
        takerSide: taker.side,
      });
    }
  }

  private applyFill(o: SimOrder, units: bigint, deal: bigint, fee: bigint): void {
    o.leftU -= units;
    o.dealMoneyU += deal;
    o.dealFeeU += fee;
    if (o.leftU === 0n) this.finish(o, 'FILLED');
    else o.status = 'PARTIALLY_FILLED';
  }
}
