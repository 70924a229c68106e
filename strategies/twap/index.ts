/**
 * TWAP: buys or sells `total` (base) over `durationMs` in `slices` equal slices, one every durationMs / slices on
 * `ctx.scheduler`. Each slice is ONE limit order at or inside the touch (`improveTicks` steps better than our side's
 * best price, but strictly behind the other side, so it never takes) and never beyond the price limit (`priceLimit`,
 * or the first mid × (1 ± `maxDeviation`)). At each new slice the previous order is canceled and what it did not fill
 * is carried into the next one; a slice below the market's minimums is carried forward too. After the duration,
 * what is left is re-priced every interval until done; dust the market's minimums do not allow is reported and left.
 *
 * Progress is logged with `ctx.log` (`twap progress` on every fill, `twap done` at the end); the strategy's stream
 * completes when the total is done. Filled amounts come from `fills$` (this strategy's own deals), so a restart
 * starts the schedule over: TWAP progress is not restored from the journal.
 *
 * Params (YAML `params:`; defaults in ./params.ts): `side` (buy), `total` (0.01), `durationMs` (600000),
 * `slices` (10), `priceLimit` (none), `maxDeviation` (0.01), `improveTicks` (1), `settleMs` (2000),
 * `retryAfterMs` (15000). Orders carry the tag `twap-<slice>`.
 */
import { combineLatest, EMPTY, from, interval, map, merge, mergeMap, of, takeWhile, type Observable } from 'rxjs';
import {
  bookTop,
  Decimal,
  defineStrategy,
  midPrice,
  ZERO,
  type Intent,
  type OrderBook,
  type OwnOrder,
  type StrategyContext,
} from '../../src/strategy/index.js';
import { planTwap, type TwapDecision } from './twap-plan.js';
import { twapParams, type TwapParams } from './params.js';

type TwapEvent = { kind: 'view'; book: OrderBook; live: readonly OwnOrder[] } | { kind: 'fill'; amount: Decimal } | { kind: 'tick' };
type Output = { done: true } | { done: false; intent: Intent };

export default defineStrategy({
  name: 'twap',
  description: 'Buys or sells a total amount over a duration in equal slices of passive limit orders',
  params: twapParams,
  create(ctx: StrategyContext<TwapParams>): Observable<Intent> {
    const p = ctx.params;
    const sliceMs = p.durationMs / p.slices;
    let startedAt: number | undefined;
    let limit: Decimal | undefined = p.priceLimit;
    let filled = ZERO;
    let book: OrderBook | undefined;
    let live: readonly OwnOrder[] = [];
    let lastGoneAt: number | undefined;
    let placingUntil = -Infinity;
    let lastSlice = 0;
    const canceling = new Map<string, number>();

    const onView = (nextBook: OrderBook, nextLive: readonly OwnOrder[], now: number): void => {
      book = nextBook;
      const present = new Set(nextLive.map((o) => o.clientOrderId));
      if (live.some((o) => !present.has(o.clientOrderId))) lastGoneAt = now;
      if (nextLive.length > 0 || placingUntil <= now) placingUntil = -Infinity;
      for (const [id, until] of canceling) if (!present.has(id) || until <= now) canceling.delete(id);
      live = nextLive;
      const mid = midPrice(nextBook);
      if (limit === undefined && mid) limit = p.side === 'buy' ? mid.times(p.maxDeviation.plus(1)) : mid.times(p.maxDeviation.negated().plus(1));
      if (startedAt === undefined && limit !== undefined) {
        startedAt = now; // the schedule starts with the first book that gives a limit
        ctx.log.info({ side: p.side, total: p.total.toFixed(), slices: p.slices, sliceMs, limit: limit.toFixed() }, 'twap started');
      }
    };

    const evaluate = (now: number): TwapDecision | undefined => {
      if (startedAt === undefined || limit === undefined || !book) return undefined;
      const top = bookTop(book);
      return planTwap({
        market: ctx.market,
        params: p,
        startedAt,
        now,
        filled,
        limit,
        ...(top.bid ? { bid: top.bid } : {}),
        ...(top.ask ? { ask: top.ask } : {}),
        live,
        canceling: new Set(canceling.keys()),
        placing: placingUntil > now,
        ...(lastGoneAt !== undefined ? { lastGoneAt } : {}),
      });
    };

    const events$: Observable<TwapEvent> = merge(
      combineLatest([ctx.book$, ctx.orders$]).pipe(map(([b, l]): TwapEvent => ({ kind: 'view', book: b, live: l }))),
      ctx.fills$.pipe(map((d): TwapEvent => ({ kind: 'fill', amount: d.amount }))),
      interval(sliceMs, ctx.scheduler).pipe(map((): TwapEvent => ({ kind: 'tick' }))),
    );

    return events$.pipe(
      mergeMap((event): Observable<Output> => {
        const now = ctx.clock.now();
        if (event.kind === 'view') onView(event.book, event.live, now);
        if (event.kind === 'fill') {
          filled = filled.plus(event.amount);
          const pct = filled.div(p.total).times(100).toDecimalPlaces(1).toFixed();
          ctx.log.info({ filled: filled.toFixed(), total: p.total.toFixed(), pct }, 'twap progress');
        }
        const decision = evaluate(now);
        if (!decision) return EMPTY;
        if (decision.slice !== lastSlice) {
          lastSlice = decision.slice;
          ctx.log.info({ slice: decision.slice, of: p.slices, filled: filled.toFixed(), total: p.total.toFixed() }, 'twap slice');
        }
        if (decision.kind === 'done') {
          ctx.log.info({ filled: filled.toFixed(), total: p.total.toFixed(), dust: decision.dust.toFixed() }, 'twap done');
          return of({ done: true });
        }
        if (decision.kind === 'wait') return EMPTY;
        for (const intent of decision.intents) {
          if (intent.kind === 'cancel') canceling.set(intent.clientOrderId, now + p.retryAfterMs);
          if (intent.kind === 'place-limit') placingUntil = now + p.retryAfterMs;
        }
        return from(decision.intents.map((intent): Output => ({ done: false, intent })));
      }),
      takeWhile((out): out is { done: false; intent: Intent } => !out.done),
      map((out) => out.intent),
    );
  },
});
