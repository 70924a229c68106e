/**
 * Grid: limit orders on N evenly spaced price levels between `lower` and `upper`, buys below the market and
 * sells above it, one empty level (the "gap") where the market is. When a level fills, the gap moves there, so
 * the opposite order appears one level away (a buy filled at level i → a sell at i+1; a sell filled at j → a buy
 * at j−1) and each round trip earns one level's spacing.
 *
 * Params (YAML `params:`; defaults in ./params.ts):
 * - `lower`, `upper`: the grid's price range (absent: first mid ∓ `range`, e.g. 0.01 = ±1 %).
 * - `levels`: number of prices, both ends included (default 10). `amount`: base amount per order (default 0.001).
 * - `postOnly` (default false): the grid never places across the book anyway; post-only also forbids taking.
 * - `retryAfterMs` (default 15000): how long a place/cancel may stay unconfirmed before it may be retried.
 * - `cancelGraceMs` (default 3000): an order on the wrong side of the gap is canceled only once it stayed wrong
 *   this long (it is usually one whose fill is still on its way).
 *
 * At most one order per level at every moment: nothing is placed at a level that holds any live order (pending,
 * open, partially filled, unknown, or being canceled), and a wrong order is canceled BEFORE its replacement is
 * placed. Orders carry the tag `grid-<level>`.
 *
 * Restarts: the engine adopts the account's open orders with this strategy's prefix and their tags from the
 * journal, so the first `orders$` already holds the grid; the strategy finds the gap from them (the empty level
 * between the highest buy and the lowest sell nearest to the market) and only fills in what is missing.
 * The position/inventory is not tracked: the grid needs enough base for its sells and quote for its buys.
 */
import { EMPTY, combineLatest, from, map, merge, mergeMap, type Observable } from 'rxjs';
import { defineStrategy, midPrice, type Deal, type Intent, type OrderBook, type OwnOrder, type StrategyContext } from '../../src/strategy/index.js';
import { gridLevels, inferGap, levelOfOrder, nearestLevel, type GridLevel } from './grid-levels.js';
import { planGrid } from './grid-plan.js';
import { gridParams, type GridParams } from './params.js';

type GridEvent = { kind: 'view'; book: OrderBook; live: readonly OwnOrder[] } | { kind: 'fill'; deal: Deal };

export default defineStrategy({
  name: 'grid',
  description: 'Buy and sell limit orders on N levels between a lower and an upper price; a fill moves the gap',
  params: gridParams,
  create(ctx: StrategyContext<GridParams>): Observable<Intent> {
    const p = ctx.params;
    let levels: GridLevel[] | undefined;
    let gap: number | undefined;
    let live: readonly OwnOrder[] = [];
    let book: OrderBook | undefined;
    const blocked = new Map<number, number>(); // level → until (ms)
    const canceling = new Map<string, number>(); // client id → until (ms)
    const levelOfClientId = new Map<string, number>();
    const cancelWantedSince = new Map<string, number>(); // client id → first time a cancel was wanted (ms)

    const onFill = (deal: Deal): void => {
      if (!levels) return;
      const level = levelOfClientId.get(deal.clientOrderId) ?? nearestLevel(levels, deal.price);
      blocked.delete(level);
      // orders$ may still show the filled order: take the fill into account now, so it is not canceled as stale
      live = live.map((o) => (o.clientOrderId === deal.clientOrderId ? { ...o, left: o.left.minus(deal.amount) } : o)).filter((o) => o.left.gt(0));
      // A sell filled at j: the market went up through j, the gap moves up to j; a buy filled at i: down to i.
      // max/min rather than "last fill wins" because the deals of one poll arrive in no particular order.
      const next = gap === undefined ? level : deal.side === 'sell' ? Math.max(gap, level) : Math.min(gap, level);
      if (gap !== next)
        ctx.log.info({ level, side: deal.side, price: deal.price.toFixed(), amount: deal.amount.toFixed(), gap: next }, 'grid level filled; gap moves');
      gap = next;
    };

    const onView = (nextBook: OrderBook, nextLive: readonly OwnOrder[]): void => {
      book = nextBook;
      const now = ctx.clock.now();
      const present = new Set(nextLive.map((o) => o.clientOrderId));
      if (levels) {
        for (const order of live) {
          // An order that left without our cancel: hold its level until its fill is seen (or the wait expires).
          if (!present.has(order.clientOrderId) && !canceling.has(order.clientOrderId)) {
            const level = levelOfOrder(levels, order);
            if (level !== undefined) blocked.set(level, now + p.retryAfterMs);
          }
        }
      }
      for (const id of [...canceling.keys()]) if (!present.has(id)) canceling.delete(id);
      live = nextLive;
      const mid = midPrice(nextBook);
      if (!levels && mid) {
        const lower = p.lower ?? mid.times(p.range.negated().plus(1));
        const upper = p.upper ?? mid.times(p.range.plus(1));
        levels = gridLevels(ctx.market, lower, upper, p.levels);
        ctx.log.info({ lower: levels[0]!.price.toFixed(), upper: levels.at(-1)!.price.toFixed(), levels: levels.length }, 'grid built');
      }
      if (!levels) return;
      for (const order of nextLive) {
        const level = levelOfOrder(levels, order);
        if (level === undefined) continue;
        levelOfClientId.set(order.clientOrderId, level);
        // bounded: only recent orders can still report a fill (Map keeps insertion order, oldest first)
        if (levelOfClientId.size > 10_000) levelOfClientId.delete(levelOfClientId.keys().next().value!);
        blocked.delete(level); // the level's order is on orders$: the place went through
      }
      if (gap === undefined && mid) {
        gap = inferGap(levels, nextLive, mid);
        ctx.log.info({ gap, adopted: nextLive.length }, 'grid gap chosen');
      }
    };

    const plan = (): Intent[] => {
      if (!levels || gap === undefined || !book) return [];
      const now = ctx.clock.now();
      for (const [level, until] of blocked) if (until <= now) blocked.delete(level);
      for (const [id, until] of canceling) if (until <= now) canceling.delete(id);
      const intents = planGrid({
        levels,
        gap,
        live,
        blocked: new Set(blocked.keys()),
        canceling: new Set(canceling.keys()),
        bestBid: book.bids[0]?.price,
        bestAsk: book.asks[0]?.price,
        amount: p.amount,
        postOnly: p.postOnly,
      });
      // A cancel must be wanted for cancelGraceMs before it is sent: a wrong-side order is usually one whose fill
      // is on its way (deals and orders are polled apart), and canceling it would only earn a "not found".
      const wanted = new Set<string>();
      const ready = intents.filter((intent) => {
        if (intent.kind !== 'cancel') return true;
        wanted.add(intent.clientOrderId);
        const since = cancelWantedSince.get(intent.clientOrderId) ?? now;
        cancelWantedSince.set(intent.clientOrderId, since);
        return now - since >= p.cancelGraceMs;
      });
      for (const id of [...cancelWantedSince.keys()]) if (!wanted.has(id)) cancelWantedSince.delete(id);
      for (const intent of ready) {
        if (intent.kind === 'cancel') canceling.set(intent.clientOrderId, now + p.retryAfterMs);
        if (intent.kind === 'place-limit' && levels) {
          const level = levelOfOrder(levels, { tag: intent.tag, price: intent.price });
          if (level !== undefined) blocked.set(level, now + p.retryAfterMs);
        }
      }
      return ready;
    };

    const events$: Observable<GridEvent> = merge(
      combineLatest([ctx.book$, ctx.orders$]).pipe(map(([b, l]): GridEvent => ({ kind: 'view', book: b, live: l }))),
      ctx.fills$.pipe(map((deal): GridEvent => ({ kind: 'fill', deal }))),
    );
    return events$.pipe(
      mergeMap((event) => {
        if (event.kind === 'fill') onFill(event.deal);
        else onView(event.book, event.live);
        const intents = plan();
        return intents.length > 0 ? from(intents) : EMPTY;
      }),
    );
  },
});
