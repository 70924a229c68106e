/**
 * A `MarketFlow` that replays a recording (src/recording/recording-format.ts) into the simulated exchange
 * instead of synthetic flow, so a daemon can paper-trade a recorded day over HTTP:
 * `startSim({ marketFlow: createRecordedFlow(...) })`.
 *
 * At each step the recorded time is `firstT + (now − startedAt) × speed` (speed 1 = as recorded,
 * 10 = ten times faster); when it passes the next snapshot, the flow account's resting orders are
 * moved to match that snapshot (book-mirror.ts): clients' orders fill when the recorded book trades
 * through them, each recorded seller (buyer) at or through them once, the backtest's PESSIMISTIC fill assumption on a
 * books-only recording.
 * Deterministic given the recording and the sequence of step times.
 */
import { readRecordingLines, type BookLine } from '../recording/recording-format.js';
import type { OrderBookResponse, WireMarket } from '../venue/wire.js';
import { BookMirror, wireLevels } from './book-mirror.js';
import type { SimExchange } from './exchange.js';
import type { MarketFlow } from './market-flow.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, type SimConfig, type SimConfigInput } from './sim-config.js';

export interface RecordedBooks {
  readonly market: WireMarket;
  readonly snapshots: readonly { readonly t: number; readonly book: OrderBookResponse }[];
}

/** Loads a recording's snapshots into memory (a recorded day of 1 s snapshots at 20 levels is ~70 MB of text). */
export async function loadRecordedBooks(file: string): Promise<RecordedBooks> {
  let market: WireMarket | undefined;
  const snapshots: BookLine[] = [];
  for await (const line of readRecordingLines(file)) {
    if (line.type === 'market') market ??= line.market;
    else if (line.type === 'book') snapshots.push(line);
  }
  if (market === undefined) throw new Error(`${file}: no market record`);
  return { market, snapshots };
}

export interface RecordedFlowOptions {
  readonly books: RecordedBooks;
  /** Sim market to drive. Default: the recording's market name. */
  readonly market?: string;
  /** The (internal, funded) account the flow trades from. Default: the config's `flow.account`, else `market`. */
  readonly account?: string;
  /** Replay speed; 1 = as recorded. Default 1. */
  readonly speed?: number;
  /** Wall-clock time at which the first snapshot is shown. Default: the first step's time. */
  readonly startAt?: number;
  /** Start again from the first snapshot at the end. Default false (the last book stays). */
  readonly loop?: boolean;
}

export interface RecordedFlow extends MarketFlow {
  /** Index of the snapshot shown now (-1 before the first). */
  readonly shown: number;
  /** Receive time of the snapshot shown now. */
  readonly shownT: number | undefined;
}

export function createRecordedFlow(o: RecordedFlowOptions): RecordedFlow {
  const snaps = o.books.snapshots;
  if (snaps.length === 0) throw new Error('recorded flow: the recording has no snapshot');
  const speed = o.speed ?? 1;
  const firstT = snaps[0]!.t;
  let startAt = o.startAt;
  let shown = -1;
  let mirror: BookMirror | undefined;

  return {
    get shown() {
      return shown;
    },
    get shownT() {
      return shown < 0 ? undefined : snaps[shown]!.t;
    },
    step(ex: SimExchange, nowMs: number): void {
      startAt ??= nowMs;
      const market = o.market ?? o.books.market.name;
      const account = o.account ?? ex.config.flow?.account ?? 'market';
      let t = firstT + (nowMs - startAt) * speed;
      const span = snaps[snaps.length - 1]!.t - firstT;
      if (o.loop && span > 0 && t - firstT > span) t = firstT + ((t - firstT) % (span + 1));
      let next = shown;
      if (o.loop && next >= 0 && snaps[next]!.t > t) next = -1;
      while (next + 1 < snaps.length && snaps[next + 1]!.t <= t) next += 1;
      if (next === shown || next < 0) return;
      shown = next;
      mirror ??= new BookMirror(account, market);
      mirror.apply(ex, wireLevels(snaps[next]!.book));
    },
  };
}

/**
 * A sim config for replaying a recording: the recording's market with ITS rules (replacing a market of
 * the same name), the flow account (internal) funded in both of its assets, and no synthetic flow for
 * that market. Everything else (client accounts, other markets) comes from `base`. Use:
 * `startSim({ config: simConfigForRecording(books.market), marketFlow: createRecordedFlow({ books, speed }) })`.
 */
export function simConfigForRecording(
  market: WireMarket,
  base: SimConfigInput = DEFAULT_SIM_CONFIG_INPUT,
  flowAccount = base.flow?.account ?? 'market',
): SimConfig {
  const huge = { [market.stock]: '1000000000', [market.money]: '1000000000000000' };
  const accounts = base.accounts.some((a) => a.name === flowAccount)
    ? base.accounts.map((a) => (a.name === flowAccount ? { ...a, internal: true, trade: { ...(a.trade ?? {}), ...huge } } : a))
    : [...base.accounts, { name: flowAccount, internal: true, trade: huge }];
  // client accounts get the recording's assets too, so they can trade it
  const withAssets = accounts.map((a) =>
    a.name === flowAccount ? a : { ...a, trade: { [market.stock]: '10', [market.money]: '1000000', ...(a.trade ?? {}) } },
  );
  const flowMarkets = { ...(base.flow?.markets ?? {}) };
  delete flowMarkets[market.name];
  return parseSimConfig(
    {
      ...base,
      markets: [
        ...base.markets.filter((m) => m.name !== market.name),
        {
          name: market.name,
          stock: market.stock,
          money: market.money,
          stockPrec: Number(market.stockPrec),
          moneyPrec: Number(market.moneyPrec),
          minAmount: market.minAmount,
          minTotal: market.minTotal,
          maxTotal: market.maxTotal,
          makerFee: market.makerFee,
          takerFee: market.takerFee,
        },
      ],
      accounts: withAssets,
      flow: { ...(base.flow ?? {}), account: flowAccount, markets: flowMarkets },
    },
    `sim config for ${market.name}`,
  );
}
