import type { BookLevel, OrderBook } from '../../model/book.js';
import { D, Decimal, ZERO } from '../../model/decimal.js';
import type { Deal, Order } from '../../model/order.js';
import type { AbsurdBook, DealCorruption, OrderLie } from './lie-config.js';

/**
 * The lies themselves, as pure rewrites of the truth in domain form (the routes render them in the answer's
 * dialect, so every lie is well-formed JSON of the right types). Each changes exactly what its name says.
 */

/** The acted order as a contradicting answer or an impossible record would show it. */
export function lieAboutOrder(order: Order, lie: OrderLie, otherMarket: string): Order {
  switch (lie) {
    case 'market':
      return { ...order, market: otherMarket };
    case 'amount':
      // ten times the amount, and as much more left, so the record is consistent in itself (the "left 0.02 for a 0.002 order")
      return { ...order, amount: order.amount.times(10), left: order.left.plus(order.amount.times(9)) };
    case 'price':
      return { ...order, price: D(1) };
    case 'side':
      return { ...order, side: order.side === 'buy' ? 'sell' : 'buy' };
    case 'client-order-id':
      return { ...order, clientOrderId: `${order.clientOrderId}x` };
    case 'negative-left':
      return { ...order, left: (order.left.isZero() ? order.amount : order.left).negated() };
    case 'negative-price':
      return { ...order, price: order.price.negated() };
    case 'left-above-amount':
      return { ...order, left: order.amount.times(2) };
  }
}

/** The deal under its true id with one figure corrupted. */
export function corruptDeal(deal: Deal, how: DealCorruption): Deal {
  switch (how) {
    case 'negative-amount':
      return { ...deal, amount: deal.amount.negated() };
    case 'zero-price':
      return { ...deal, price: ZERO };
    case 'negative-price':
      return { ...deal, price: deal.price.negated() };
    case 'negative-fee':
      return { ...deal, fee: deal.fee.isZero() ? D('-0.01') : deal.fee.negated() };
  }
}

/** An absurd book built from the real one (its levels keep their amounts). */
export function absurdBook(book: OrderBook, how: AbsurdBook): OrderBook {
  switch (how) {
    case 'ask-under-bid': {
      const size = book.asks[0]?.amount ?? D(1);
      return { ...book, asks: [{ price: D('0.01'), amount: size }, ...book.asks] };
    }
    case 'times-10':
      return scalePrices(book, D(10));
    case 'huge': {
      // the mid moved to ~1e29, whatever the market's price
      const ref = book.bids[0]?.price ?? book.asks[0]?.price ?? D(1);
      const exponent = 29 - Math.round(Math.log10(Math.max(ref.toNumber(), 1e-8)));
      return scalePrices(book, new Decimal(10).pow(exponent));
    }
  }
}

/**
 * The bid side moved up so that the best bid lies `crossBy` of the mid above the best ask (on the book's own price
 * grid, so only the crossing is wrong).
 */
export function crossedBook(book: OrderBook, crossBy: number): OrderBook {
  const bid = book.bids[0]?.price;
  const ask = book.asks[0]?.price;
  if (bid === undefined || ask === undefined) return book;
  const places = Math.max(bid.decimalPlaces(), ask.decimalPlaces());
  const shift = ask.minus(bid).plus(ask.plus(bid).div(2).times(crossBy)).toDecimalPlaces(places, Decimal.ROUND_UP);
  const step = new Decimal(10).pow(-places);
  const by = shift.gt(ask.minus(bid)) ? shift : ask.minus(bid).plus(step);
  return { ...book, bids: book.bids.map((l) => ({ price: l.price.plus(by), amount: l.amount })) };
}

function scalePrices(book: OrderBook, factor: Decimal): OrderBook {
  const scale = (levels: readonly BookLevel[]): BookLevel[] => levels.map((l) => ({ price: l.price.times(factor), amount: l.amount }));
  return { ...book, asks: scale(book.asks), bids: scale(book.bids) };
}
