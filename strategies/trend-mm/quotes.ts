import { D, dmax, dmin, priceStep, roundPrice, type BookTouch, type Decimal, type DesiredOrder, type Market } from '../../src/strategy/index.js';
import type { TrendMmParams } from './params.js';

const ONE = D(1);

/**
 * The quotes wanted for one book top, trend (undefined until the slow EMA has enough candles: then no skew) and net
 * inventory. centre = mid × (1 + skew), skew = trendGain × trend within ±maxSkew; bid = centre × (1 − spread/2),
 * ask = centre × (1 + spread/2), each on the price step away from the spread and at least one step behind the
 * opposite touch (maker quotes). Left out: the side against the trend at |trend| ≥ standAsideAt, and the side that
 * would add to an inventory of maxInventory or more. Pure.
 */
export function trendQuotes(p: TrendMmParams, top: BookTouch, trend: number | undefined, inventory: Decimal, market: Market): DesiredOrder[] {
  const step = priceStep(market);
  // the trend is a float; as a fraction of the price, 8 decimals are finer than any price step
  const t = trend === undefined ? D(0) : D(trend.toFixed(8));
  const skew = dmax(p.maxSkew.neg(), dmin(p.maxSkew, p.trendGain.times(t)));
  const centre = top.mid.times(ONE.plus(skew));
  const half = p.spread.div(2);
  let bid = roundPrice(market, 'buy', centre.times(ONE.minus(half)));
  let ask = roundPrice(market, 'sell', centre.times(ONE.plus(half)));
  if (top.ask !== undefined) bid = dmin(bid, top.ask.minus(step));
  if (top.bid !== undefined) ask = dmax(ask, top.bid.plus(step));
  const quotes: DesiredOrder[] = [];
  if (t.gt(p.standAsideAt.neg()) && inventory.lt(p.maxInventory) && bid.gt(0))
    quotes.push({ side: 'buy', price: bid, amount: p.size, tag: 'bid', postOnly: true });
  if (t.lt(p.standAsideAt) && inventory.gt(p.maxInventory.neg())) quotes.push({ side: 'sell', price: ask, amount: p.size, tag: 'ask', postOnly: true });
  return quotes;
}
