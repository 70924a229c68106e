import type { Decimal } from '../model/decimal.js';
import type { Side } from '../model/order.js';
import type { MarketEngine } from './market-engine.js';
import { newOrder, type OrderIntake } from './order-intake.js';
import type { SimOrder } from './sim-order.js';
import { fromUnits, toUnits } from './units.js';

/** A resting order as the paper venue's fill model follows it (paper-fill-model.ts). */
export interface RestingOrder {
  readonly account: string;
  readonly orderId: number;
  readonly side: Side;
  readonly price: Decimal;
  /** The price in integer steps, as the book and the fill model compare prices. */
  readonly ticks: number;
  readonly left: Decimal;
  /** When it was placed, Unix ms (the exchange's clock). */
  readonly placedMs: number;
}

/** The orders resting in a market's book (untriggered stops are not there) of every account but `except`. */
export function restingOrders(engine: MarketEngine, scale: number, except: string): RestingOrder[] {
  const out: RestingOrder[] = [];
  for (const side of [engine.book.bids, engine.book.asks]) {
    for (const o of side.orders()) {
      if (o.accountId === except) continue;
      out.push({
        account: o.accountId,
        orderId: o.id,
        side: o.side,
        price: o.price,
        ticks: o.ticks,
        left: o.leftU === o.amountU ? o.amount : fromUnits(o.leftU, scale),
        placedMs: o.timestamp * 1000,
      });
    }
  }
  return out;
}

/**
 * Fills `amount` of a resting order as the maker, at its price, against `counterparty`, whose taker order never meets
 * the book: the counterparty the paper venue's fill model has evidence of (a trade at or through the price, a queue
 * that moved) but the mirrored book does not show. The taker is an ioc order of the counterparty at the maker's price,
 * its funds locked like any order's (order-intake.ts) and the fill the matching engine's own (MarketEngine.fillResting):
 * one settlement, the same deals, tape print, last price and stops as when matching fills the order.
 * False, and nothing done, when the order does not rest (an untriggered stop), has less left, or the counterparty
 * cannot cover the fill.
 */
export function fillByUnseenTaker(c: OrderIntake, maker: SimOrder, counterparty: string, amount: Decimal): boolean {
  const engine = c.engines.get(maker.market);
  if (engine === undefined || !maker.open || !engine.book.sideOf(maker.side).has(maker)) return false;
  if (!amount.gt(0) || toUnits(amount, c.scale) > maker.leftU) return false;
  const taker = newOrder(
    c,
    counterparty,
    engine,
    { market: maker.market, side: maker.side === 'buy' ? 'sell' : 'buy', amount, price: maker.price },
    'limit',
    maker.ticks,
    false,
    { postOnly: false, ioc: true, rpi: false },
  );
  if (taker === undefined) return false;
  c.states.get(counterparty)!.addOpen(taker);
  engine.fillResting(maker, taker);
  return true;
}
