/**
 * The live counterpart of recorded-flow.ts: a `MarketFlow` whose market is another venue's PUBLIC order book and
 * trades, polled as they happen (the paper venue: `venue: { kind: paper }`, wired in src/app). The sim does not
 * poll anything itself: whoever polls the upstream hands its answers over through `LiveMarketFeed`, the one
 * interface between the two, and the flow takes them at its steps.
 *
 * At each step, per market:
 *  - the newest upstream book is mirrored into the flow account's resting orders (book-mirror.ts): a client's order
 *    fills when the upstream's book trades through it, each counterparty there once, through the sim's matching;
 *  - then the backtest's fill model (paper-fill-model.ts, `fills`: pessimistic by default, or optimistic) fills each
 *    client's resting order by the rest of its evidence, the upstream trades at and through its price and its queue,
 *    as maker against the flow account: the paper venue fills as the backtest's lane of that assumption would;
 *  - the upstream's new public trades are printed on this venue's public tape (`SimExchange.printTrade`): the
 *    daemon's jump checks and the session recorder see the market's trades, and stop-limit orders fire on them; they
 *    are the fill model's evidence at the next upstream book, and match no order themselves;
 *  - with no upstream book for `staleAfterMs` the market is STALE: its public book is frozen as it was (the same
 *    snapshot, timestamp and all, on every poll, so the daemon's stale watch sees a stale book and cancels), the
 *    flow's orders are withdrawn, so nothing fills against a book that is no longer known. The spell is a gap in the
 *    recording, as the backtest sees one: the fill model keeps its queue states, the last book before the spell and
 *    the upstream trades taken in it, and the mirror what the clients ate. The next upstream book thaws the market
 *    and is one step from the last book before the spell, with every trade since: what the backtest's fill model
 *    does across a gap between two snapshots, so paper fills stay equal to the backtest's across the spell
 *    (test/backtest/paper-parity.test.ts).
 * A market starts stale (frozen, empty) until its first upstream book.
 */
import type { FillAssumption } from '../fill-model/fill-model.js';
import type { FillModelParams } from '../fill-model/fill-model-params.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import { BotError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import { BookMirror, bookLevels } from './book-mirror.js';
import type { SimExchange } from './exchange.js';
import type { MarketFlow } from './market-flow.js';
import { PaperFillModel } from './paper-fill-model.js';

/** What the live flow reads the upstream's market from. Implemented outside the sim (src/app polls the upstream). */
export interface LiveMarketFeed {
  /** The newest public book of `market` received since the last call; undefined when none came. */
  takeBook(market: string): OrderBook | undefined;
  /** The public trades of `market` received since the last call, oldest first, each once. */
  takeTrades(market: string): readonly PublicTrade[];
}

export interface LiveFlowOptions {
  readonly feed: LiveMarketFeed;
  readonly markets: readonly string[];
  /** No upstream book for this long (step time, ms): the market is stale. */
  readonly staleAfterMs: number;
  /** The (internal, funded) account the flow trades from. Default: the config's `flow.account`, else `market`. */
  readonly account?: string | undefined;
  /** Told when a market goes stale and when it is fresh again (its first book too: a market starts stale). */
  readonly onStale?: ((market: string, stale: boolean, atMs: number) => void) | undefined;
  /** The fill model's assumption for the clients' resting orders. Default pessimistic. */
  readonly fills?: FillAssumption | undefined;
  /** The optimistic assumption's parameters (the `fillModel:` block). Default: queueAhead 1, decreaseTrades 1. */
  readonly fillModel?: FillModelParams | undefined;
}

export interface LiveFlow extends MarketFlow {
  /** True while the market has no upstream book younger than `staleAfterMs` (and before its first). */
  isStale(market: string): boolean;
}

interface MarketState {
  mirror: BookMirror | undefined;
  fills: PaperFillModel | undefined;
  lastBookAt: number | undefined;
  stale: boolean;
}

export function createLiveFlow(o: LiveFlowOptions): LiveFlow {
  if (!(o.staleAfterMs > 0)) throw new RangeError(`live flow: staleAfterMs must be > 0, got ${o.staleAfterMs}`);
  const states = new Map<string, MarketState>(o.markets.map((m) => [m, { mirror: undefined, fills: undefined, lastBookAt: undefined, stale: true }]));

  const goStale = (ex: SimExchange, market: string, s: MarketState, nowMs: number): void => {
    // the public view first: it keeps the book the clients last saw; then the orders that made it go
    ex.freezeBook(market);
    // the queues, the eaten memory and the spell's trades are kept: the next book steps from the last one (header)
    s.mirror?.withdraw(ex);
    s.stale = true;
    o.onStale?.(market, true, nowMs);
  };

  return {
    isStale: (market) => states.get(market)?.stale ?? true,
    step(ex: SimExchange, nowMs: number): void {
      const account = o.account ?? ex.config.flow?.account ?? 'market';
      for (const [market, s] of states) {
        const book = o.feed.takeBook(market);
        if (book !== undefined) {
          s.lastBookAt = nowMs;
          if (s.stale) {
            ex.thawBook(market);
            s.stale = false;
            o.onStale?.(market, false, nowMs);
          }
          s.mirror ??= new BookMirror(account, market);
          s.fills ??= new PaperFillModel({ market: marketOf(ex, market), flowAccount: account, assumption: o.fills ?? 'pessimistic', params: o.fillModel });
          const trades = o.feed.takeTrades(market);
          s.fills.addTrades(trades);
          s.fills.beforeBook(ex);
          s.mirror.apply(ex, bookLevels(book));
          s.fills.afterBook(ex, book, nowMs);
          print(ex, market, trades);
          continue;
        }
        if (s.lastBookAt === undefined) {
          if (s.stale) ex.freezeBook(market); // no book yet: an empty, frozen one
        } else if (!s.stale && nowMs - s.lastBookAt >= o.staleAfterMs) {
          goStale(ex, market, s, nowMs);
        }
        const trades = o.feed.takeTrades(market);
        s.fills?.addTrades(trades);
        print(ex, market, trades);
      }
    },
  };
}

/** After the book: a stop-limit order a print fires meets the book as it is now, as a taker would. */
function print(ex: SimExchange, market: string, trades: readonly PublicTrade[]): void {
  for (const t of trades) ex.printTrade(market, { time: t.time, price: t.price, amount: t.amount, takerSide: t.takerSide });
}

function marketOf(ex: SimExchange, market: string): Market {
  const m = ex.markets.get(market);
  if (m === undefined) throw new BotError(`live flow: the sim has no market ${market}`, { code: 'ERR_SIM_UNKNOWN_MARKET' });
  return m;
}
