import type { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { VenueOrderStatus } from '../model/order.js';
import { Ledger } from './ledger.js';
import { type MatchHooks, matchIncoming } from './matching.js';
import { OrderBookSides } from './order-book.js';
import type { SimFill, SimOrder } from './sim-order.js';
import type { SimTrade } from './sim-types.js';
import { StopOrders } from './stop-orders.js';
import { pow10, rateParts } from './units.js';

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

/** A fee rate as an exact fraction num / den. */
interface Rate {
  readonly num: bigint;
  readonly den: bigint;
}

function rate(fraction: Decimal): Rate {
  const { num, decimals } = rateParts(fraction);
  return { num, den: pow10(decimals) };
}

/** Smallest scale at which every amount × price × fee rate of the market is a whole number of units. */
export function requiredScale(m: Market): number {
  return m.stockPrec + m.moneyPrec + Math.max(m.makerFee.decimalPlaces(), m.takerFee.decimalPlaces());
}

/**
 * One market: its book, its untriggered stops, its last price, and the settlement of fills.
 *
 * Fees (charged in the MONEY asset): the buyer pays deal + fee out of the money it locked; the seller
 * receives deal − fee. A buy locks amount × price × (1 + feeLock), where feeLock is the highest rate
 * the order can pay (the maker rate for post-only/rpi orders, which never take; otherwise
 * max(maker, taker)); whatever the fills did not spend returns to available when the order finishes.
 * A sell locks its amount of stock. Fees go to the ledger's fee pool, so funds are conserved exactly:
 * Σ(available + freeze + main) + fees + codes is constant per asset. All of it is integer arithmetic
 * on units of the ledger's scale, which `requiredScale` makes exact (no rounding anywhere).
 */
export class MarketEngine {
  readonly book = new OrderBookSides();
  readonly stops = new StopOrders();
  lastPrice: Decimal | undefined;
  private activating = false;
  private readonly hooks: MatchHooks;

  private readonly tickDen: bigint;
  private readonly makerRate: Rate;
  private readonly takerRate: Rate;

  constructor(
    readonly market: Market,
    private readonly ctx: EngineContext,
  ) {
    this.hooks = { fill: (m, t, u) => this.fill(m, t, u), cancelResting: (o) => this.finish(o, 'CANCELED') };
    if (ctx.ledger.scale < requiredScale(market)) throw new Error(`sim: ledger scale ${ctx.ledger.scale} too small for ${market.name}`);
    this.tickDen = pow10(market.moneyPrec);
    this.makerRate = rate(market.makerFee);
    this.takerRate = rate(market.takerFee);
  }

  /** Money units of `units` of stock at `ticks` (exact: the scale covers stockPrec + moneyPrec). */
  notional(units: bigint, ticks: bigint): bigint {
    return (units * ticks) / this.tickDen;
  }

  /** What a buy locks: notional plus the fee at the highest rate the order can pay. */
  buyLock(units: bigint, ticks: bigint, postOnly: boolean): bigint {
    const n = this.notional(units, ticks);
    const r = postOnly || this.makerRate.num * this.takerRate.den >= this.takerRate.num * this.makerRate.den ? this.makerRate : this.takerRate;
    return n + (n * r.num) / r.den;
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
    if (order.lockU !== 0n) Ledger.release(order.lockCell, order.lockU);
    order.lockU = 0n;
    order.status = status;
    order.open = false;
    order.finishedAt = this.ctx.nowSeconds();
    order.state.finish(order);
  }

  private fill(maker: SimOrder, taker: SimOrder, units: bigint): void {
    const { ledger } = this.ctx;
    const m = this.market;
    const deal = this.notional(units, maker.ticksU);
    const makerFee = (deal * this.makerRate.num) / this.makerRate.den;
    const takerFee = (deal * this.takerRate.num) / this.takerRate.den;
    const buyerIsMaker = maker.side === 'buy';
    const buyer = buyerIsMaker ? maker : taker;
    const seller = buyerIsMaker ? taker : maker;

    const spend = deal + (buyerIsMaker ? makerFee : takerFee);
    buyer.lockCell.freeze -= spend;
    buyer.lockU -= spend;
    buyer.gainCell.available += units;

    seller.lockCell.freeze -= units;
    seller.lockU -= units;
    seller.gainCell.available += deal - (buyerIsMaker ? takerFee : makerFee);
    ledger.addFee(m.money, makerFee + takerFee);

    const fill: SimFill = {
      id: this.ctx.nextDealId(), time: this.ctx.eventTime(), market: m.name, price: maker.price,
      amountU: units, dealU: deal, makerFeeU: makerFee, takerFeeU: takerFee, maker, taker,
    };
    this.lastPrice = maker.price;
    maker.state.addDeal(fill, true);
    taker.state.addDeal(fill, false);
    this.applyFill(maker, units, deal, makerFee);
    this.applyFill(taker, units, deal, takerFee);
    if (this.ctx.hasTradeListeners()) {
      this.ctx.publishTrade({ id: fill.id, market: m.name, time: Math.round(fill.time * 1000), price: maker.price, amount: ledger.decimal(units), takerSide: taker.side });
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
