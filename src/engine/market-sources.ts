import type { Logger } from 'pino';
import { NEVER, Observable, filter, map, share, tap, type SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { OrderBook, PublicTrade } from '../model/book.js';
import type { Decimal } from '../model/decimal.js';
import { bookSource } from '../streams/book-source.js';
import { poll } from '../streams/poll.js';
import { DEFAULT_MAX_JUMP, saneBookFilter } from '../streams/sane-books.js';
import { shareLatest } from '../streams/share-latest.js';
import { tradesSource } from '../streams/trades-source.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Stamped } from './free-funds.js';
import type { PollingOptions } from './runtime-options.js';
import { TradeEvidence } from './trade-evidence.js';

/** The venue polls the runtime shares between the engine and its strategies (see marketSources). */
export interface MarketSources {
  /** Tells a failed poll (or look-up) of `source` as an `error` event. */
  readonly onPollError: (source: string) => (error: unknown, attempt: number, retryInMs: number) => void;
  /** Sane books per market (what the engine watches). */
  readonly books: ReadonlyMap<string, Observable<OrderBook>>;
  /** The same, only while the market is fresh (what strategies see). */
  readonly strategyBooks: ReadonlyMap<string, Observable<OrderBook>>;
  /** Public trades per market (NEVER where the venue offers none). */
  readonly trades: ReadonlyMap<string, Observable<PublicTrade>>;
  readonly tradesPollMs: number;
  readonly stampedBalances$: Observable<Stamped<Balances>>;
  readonly balances$: Observable<Balances>;
}

/** Shared sources: one poll per market (and one for the account's balances), whatever the number of strategies. */
export function marketSources(o: {
  readonly api: TradingApi;
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  readonly now: () => number;
  readonly polling: PollingOptions;
  readonly marketNames: readonly string[];
  readonly onPolled: ((market: string, book: OrderBook) => void) | undefined;
  readonly emit: (e: EngineEvent) => void;
  /** Whether the market's book is stale (see book-guard.ts). */
  readonly isStale: (market: string) => boolean;
}): MarketSources {
  const { api, scheduler, logger, now, polling, marketNames, emit, isStale } = o;
  const onPollError = (source: string) => (error: unknown, attempt: number, retryInMs: number) => {
    emit({
      type: 'error',
      at: now(),
      code: (error as { code?: string }).code ?? 'ERR_POLL',
      message: `${source} poll failed (attempt ${attempt}, retry in ${retryInMs} ms): ${(error as Error).message}`,
    });
  };
  // Every consumer (strategies, marks, the gate, the stale watch) sees the books through the sanity check, once per
  // market: a held book reaches none of them. Strategies see them only while the market is fresh (a frozen book
  // repeated while stale would only have them re-quote into refusals).
  // A jump is confirmed by the market's own trades where the venue offers them (trade-evidence.ts).
  const publicTrades = api.publicTrades?.bind(api);
  const evidence =
    publicTrades === undefined
      ? undefined
      : new TradeEvidence(
          (m) => publicTrades(m),
          polling.maxJump ?? DEFAULT_MAX_JUMP,
          (m, error) => onPollError(`public trades ${m}`)(error, 1, polling.bookMs),
        );
  // the check runs in the shared subject (shareLatest's `admits`): exactly saneBooks before the share, one subscriber
  // layer fewer per poll
  const checked = (m: string) =>
    saneBookFilter({
      maxJump: polling.maxJump,
      confirmPolls: polling.confirmPolls,
      ...(evidence !== undefined ? { explained: (mid: Decimal) => evidence.explains(m, mid), firstVouched: (mid: Decimal) => evidence.vouches(m, mid) } : {}),
      onHeld: (h) => {
        if (h.reason === 'jump' || h.reason === 'first') evidence?.request(m);
        emit({ type: 'book-held', at: now(), market: m, reason: h.reason, heldPolls: h.heldPolls, message: h.message });
      },
      onResumed: (r) =>
        logger.info(
          { market: m, heldPolls: r.heldPolls, outcome: r.outcome },
          r.outcome === 'back' ? 'order book sane again, the held ones were dropped' : 'order book: new price level confirmed',
        ),
    });
  const books = new Map<string, Observable<OrderBook>>();
  const strategyBooks = new Map<string, Observable<OrderBook>>();
  const onPolled = o.onPolled;
  for (const m of marketNames) {
    const polled = bookSource(
      api,
      m,
      {
        periodMs: polling.bookMs,
        limit: polling.bookLimit,
        level: polling.bookLevel,
        onError: onPollError(`orderbook ${m}`),
        // shared below, after the check: the only subscriber of the poll is that pipeline
        shared: false,
      },
      scheduler,
    );
    books.set(m, (onPolled === undefined ? polled : polled.pipe(tap((book) => onPolled(m, book)))).pipe(shareLatest(checked(m))));
    strategyBooks.set(m, books.get(m)!.pipe(filter(() => !isStale(m))));
  }
  // Public trades per market (a strategy's trades$ and candles), polled only while a strategy listens: at the book's
  // period, at least a second apart (the venue stamps trades in whole seconds and lists its last 100). A candle waits
  // three polls past its period for trades still on their way.
  const tradesPollMs = Math.max(polling.bookMs, 1000);
  const trades = new Map<string, Observable<PublicTrade>>();
  for (const m of marketNames) {
    const onGap = () => logger.warn({ market: m }, 'public trades: a full page newer than every trade seen; trades between two polls may be missing');
    trades.set(
      m,
      publicTrades === undefined
        ? NEVER
        : tradesSource(publicTrades, m, { periodMs: tradesPollMs, onError: onPollError(`public trades ${m}`), onGap }, scheduler).pipe(share()),
    );
  }
  const stampedBalances$ = poll<Stamped<Balances>>(
    () => {
      const startedAt = now();
      // a reaction, not an async function's await: its answer one turn after the api's, as the await's was
      return api.tradeBalance().then((value) => ({ startedAt, value }));
    },
    // one request, and a reaction on its pending promise: nothing queued while it is pending
    { periodMs: polling.balancesMs, scheduler, onError: onPollError('trade balance'), startsRequest: true },
  ).pipe(shareLatest());
  const balances$ = stampedBalances$.pipe(map((s) => s.value));
  return { onPollError, books, strategyBooks, trades, tradesPollMs, stampedBalances$, balances$ };
}
