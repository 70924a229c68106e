/**
 * Trend market maker: two-sided maker quotes around the mid, moved with the market's trend and standing aside
 * against a strong one. The example of the SDK's candles and indicators: the trend is an EMA crossover of candles
 * of the market's public trades (ctx.candles), computed with trading-signals.
 *
 * - Before the slow EMA has `slow` candles it quotes like a plain market maker (no skew).
 * - In a rising market both quotes move up by trendGain × trend (at most maxSkew of the mid): the bid nears the touch
 *   and fills sooner, the ask moves away; in a falling market the reverse. At a trend of standAsideAt or more the
 *   side against it is cancelled: no buying into a fall, no selling into a rise.
 * - At a net inventory (its own fills) of maxInventory the side that would add to it is not quoted.
 * - Quotes are recomputed on every book snapshot with the latest trend; ordersToTargets keeps a resting quote within
 *   refreshThreshold of the wanted price.
 *
 * Params: ./params.ts. Live, the candles come from the venue's recent-trades endpoint (polled only because this
 * strategy asks for them); in a backtest, from the recording's trades (a recording without trades gives no trend).
 */
import { concatMap, filter, from, map, scan, startWith, withLatestFrom } from 'rxjs';
import { bookTouch, defineStrategy, ordersToTargets, ZERO } from '../../src/strategy/index.js';
import { trendMmParams } from './params.js';
import { trendQuotes } from './quotes.js';
import { trendOf } from './trend.js';

export default defineStrategy({
  name: 'trend-mm',
  description: 'Maker quotes around the mid, skewed with an EMA trend of trade candles, standing aside against a strong trend',
  params: trendMmParams,
  create(ctx) {
    const p = ctx.params;
    const trend$ = ctx.candles(p.candleMs).pipe(trendOf(p.fast, p.slow), startWith(undefined));
    // net base amount of its own fills since start
    const inventory$ = ctx.fills$.pipe(
      scan((net, deal) => (deal.side === 'buy' ? net.plus(deal.amount) : net.minus(deal.amount)), ZERO),
      startWith(ZERO),
    );
    const opts = { priceTolerance: p.refreshThreshold, market: ctx.market };
    // quotes follow each book snapshot; the trend, inventory and live orders are sampled (reacting to orders$ itself
    // would re-enter while the engine applies the previous intents)
    return ctx.book$.pipe(
      map(bookTouch),
      filter((top) => top !== undefined),
      withLatestFrom(trend$, inventory$, ctx.orders$),
      concatMap(([top, trend, inventory, orders]) => from(ordersToTargets(trendQuotes(p, top, trend, inventory, ctx.market), orders, opts))),
    );
  },
});
