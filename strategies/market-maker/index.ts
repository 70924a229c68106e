/**
 * Market maker: two-sided quotes around the mid, skewed against inventory.
 *
 * On every order book snapshot it computes the quotes it wants resting and turns them into cancel/place intents
 * with `ordersToTargets`, so it only re-quotes when needed.
 *
 * Params (YAML `params:`; money values as decimal strings):
 * - `spread` (default "0.002"): distance between the innermost bid and ask, as a fraction of the mid
 *   (0.002 = 0.2 %: bid at mid × (1 − 0.001), ask at mid × (1 + 0.001)).
 * - `size` (default "0.001"): base amount of each quote.
 * - `levels` (default 1): quotes per side.
 * - `levelSpacing` (default "0.001"): extra distance of each further level, as a fraction of the mid.
 * - `inventorySkew` (default "0.001"): how far the quotes' centre moves against inventory, as a fraction of the mid
 *   at full inventory: centre = mid × (1 − inventorySkew × inventory / maxInventory), so when long both quotes move
 *   down (sell sooner, buy cheaper), when short up.
 * - `maxInventory` (default "0.01"): inventory (base amount) at which the skew is full; at or beyond it the side that
 *   would add to the position is not quoted at all.
 * - `refreshThreshold` (default "0.0005"): a resting quote is kept while it is within this fraction of the wanted
 *   price (and more than half of it is left); only a bigger move re-quotes, which saves rate budget and queue position.
 * - `postOnly` (default true): quotes are maker-only; a quote that would cross the book is pulled back one price step
 *   behind the opposite touch.
 * - `inventoryFrom` (default "fills"): `fills` = net base amount of this strategy's own fills since start;
 *   `balances` = the account's base asset total (available + freeze) minus `inventoryBaseline` (default: the first
 *   balance seen, so the start counts as flat).
 *
 * Prices are not quantized here: the engine's gate does it (buys round down, sells up), so a quote never crosses
 * by rounding. Cancelling the quotes on stop is the engine's job (`shutdown.cancelOpenOrders`).
 */
import { combineLatest, from, map, scan, startWith, take, type Observable } from 'rxjs';
import {
  D,
  ZERO,
  bookTouch,
  dadd,
  dcmp,
  defineStrategy,
  dmul,
  dsub,
  maxOfSum,
  minOfDifference,
  ordersToTargets,
  type Decimal,
  type DesiredOrder,
  type Intent,
  type StrategyContext,
} from '../../src/strategy/index.js';
import { params, type MarketMakerParams } from './params.js';
import { ONE, followInventory, quoteConstants } from './quote-constants.js';
import { quotesStand } from './quotes-stand.js';
import { decideEach } from './decide-each.js';

export type { MarketMakerParams } from './params.js';

/** Net base inventory, as configured. Starts flat. */
function inventory$(ctx: StrategyContext<MarketMakerParams>): Observable<Decimal> {
  if (ctx.params.inventoryFrom === 'fills') {
    return ctx.fills$.pipe(
      // dadd/dsub: decimal.js's plus/minus, the same Decimal, made on integers (a fill's amount is small)
      scan((net, deal) => (deal.side === 'buy' ? dadd(net, deal.amount) : dsub(net, deal.amount)), ZERO),
      startWith(ZERO),
    );
  }
  const stock = ctx.market.stock;
  const total$ = ctx.balances$.pipe(map((b) => (b[stock] ? b[stock].available.plus(b[stock].freeze) : ZERO)));
  const baseline$ = ctx.params.inventoryBaseline !== undefined ? from([ctx.params.inventoryBaseline]) : total$.pipe(take(1));
  return combineLatest([total$, baseline$]).pipe(map(([total, baseline]) => total.minus(baseline)));
}

const NO_INTENTS: readonly Intent[] = [];

/** Significant digits every result is rounded to (src/model/decimal.ts). */
const PRECISION = (ONE.constructor as unknown as { readonly precision: number }).precision;
/** Base-1e7 words of a finite Decimal's digits (decimal.js's documented `d`); each holds at most 7 digits. */
const wordsOf = (x: Decimal): number => (x as unknown as { readonly d: readonly number[] | null }).d?.length ?? Infinity;

/** The quotes wanted for one mid and inventory. Pure (the cache above only skips recomputing the same values). */
export function desiredQuotes(
  p: MarketMakerParams,
  top: { readonly bid?: Decimal; readonly ask?: Decimal; readonly mid: Decimal },
  inventory: Decimal,
  priceStep: Decimal,
): DesiredOrder[] {
  const c = quoteConstants(p);
  followInventory(c, p, inventory);
  // bid = (mid × centre factor) × bid factor, the quote's definition. When the three together have no more digits
  // than the precision, neither product rounds, in either grouping, so mid × (centre factor × bid factor) is the very
  // same value with one multiplication less per side (the pair's product is made once per inventory change). The mid's
  // digits are bounded by its base-1e7 words; otherwise, the products are made as defined.
  const exact = wordsOf(top.mid) * 7 + c.last.factorDigits <= PRECISION;
  const centre = exact ? undefined : dmul(top.mid, c.last.centreFactor);
  const quotes: DesiredOrder[] = [];
  for (let i = 0; i < c.levels.length; i++) {
    const level = c.levels[i]!;
    let bid = centre === undefined ? dmul(top.mid, c.last.bidFactors[i]!) : dmul(centre, level.bidFactor);
    let ask = centre === undefined ? dmul(top.mid, c.last.askFactors[i]!) : dmul(centre, level.askFactor);
    if (p.postOnly) {
      // Never ask to cross: a maker quote stays at least one step behind the opposite touch (dmin(bid, ask − step),
      // dmax(ask, bid + step), the step's arithmetic skipped when the quote is plainly behind it already).
      if (top.ask !== undefined) bid = minOfDifference(bid, top.ask, priceStep);
      if (top.bid !== undefined) ask = maxOfSum(ask, top.bid, priceStep);
    }
    if (dcmp(inventory, p.maxInventory) < 0 && dcmp(bid, ZERO) > 0) {
      quotes.push({ side: 'buy', price: bid, amount: p.size, tag: level.bidTag, postOnly: p.postOnly });
    }
    if (dcmp(inventory, c.minInventory) > 0) {
      quotes.push({ side: 'sell', price: ask, amount: p.size, tag: level.askTag, postOnly: p.postOnly });
    }
  }
  return quotes;
}

export default defineStrategy({
  name: 'market-maker',
  description: 'Two-sided quotes around the mid with spread, size, levels, inventory skew and a refresh threshold',
  params,
  create(ctx) {
    const p = ctx.params;
    const priceStep = D(10).pow(-ctx.market.moneyPrec);
    const opts = { priceTolerance: p.refreshThreshold, amountTolerance: D('0.5'), market: ctx.market };
    // Quotes are recomputed on every book snapshot (a filled quote is replaced at the next poll even in a quiet
    // market); orders$ and inventory are only sampled. Reacting to orders$ itself would re-enter while the engine is
    // still applying the previous batch of intents and place duplicates.
    // Most snapshots leave every quote within the threshold of its order: quotesStand tells them from estimates,
    // exactly, and only the others are computed in Decimals (a book without a touch gives no quotes).
    return ctx.book$.pipe(
      decideEach(inventory$(ctx), ctx.orders$, (book, inventory, orders): readonly Intent[] => {
        if (quotesStand(p, book, inventory, orders, priceStep)) return NO_INTENTS;
        const top = bookTouch(book);
        return top === undefined ? NO_INTENTS : ordersToTargets(desiredQuotes(p, top, inventory, priceStep), orders, opts);
      }),
    );
  },
});
