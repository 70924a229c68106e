/**
 * A `MarketFlow` that replays a recording (src/recording/recording-format.ts) into the simulated exchange
 * instead of synthetic flow, so a daemon can paper-trade a recorded day over HTTP:
 * `startSim({ marketFlow: createRecordedFlow(...) })`.
 *
 * At each step the recorded time is `firstT + (now − startedAt) × speed` (speed 1 = as recorded,
 * 10 = ten times faster); when it passes the next snapshot, the flow account's resting orders are
 * moved to match that snapshot, level by level:
 *  - a level that shrank or vanished loses its NEWEST flow orders first (cancelled, or cancelled and a
 *    smaller remainder re-posted at the back), so queue positions ahead of a client are kept;
 *  - a level that grew gets a new flow order for the difference, at the back of the queue;
 *  - cancels happen before placements, so the flow never trades with itself; a recorded level at or
 *    through a client's resting order matches it (the client is the maker) exactly as a real
 *    counterparty arriving there would.
 * Clients' orders therefore fill when the recorded book trades through them, and are not filled by
 * quantity decreases at their level: the backtest's PESSIMISTIC fill assumption.
 * Deterministic given the recording and the sequence of step times.
 */
import { D, Decimal } from '../model/decimal.js';
import type { Side } from '../model/order.js';
import { readRecordingLines, type BookLine } from '../recording/recording-format.js';
import type { OrderBookResponse, WireMarket } from '../venue/wire.js';
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

interface Resting {
  readonly id: number;
  left: Decimal;
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
  const levels = { buy: new Map<string, Resting[]>(), sell: new Map<string, Resting[]>() };
  let startAt = o.startAt;
  let shown = -1;

  const apply = (ex: SimExchange, account: string, market: string, book: OrderBookResponse): void => {
    const want = { buy: new Map(book.bids.map(([p, q]) => [D(p).toFixed(), D(q)])), sell: new Map(book.asks.map(([p, q]) => [D(p).toFixed(), D(q)])) };
    const open = new Set(ex.openOrders(account, { market, limit: 1_000_000 }).map((x) => x.orderId));
    const adds: Array<{ side: Side; price: string; amount: Decimal }> = [];
    for (const side of ['buy', 'sell'] as const) {
      const handled = new Set<string>();
      for (const [price, list] of levels[side]) {
        handled.add(price);
        // orders the clients filled are gone; keep the rest with their current left
        const live = list.filter((r) => open.has(r.id));
        let have = live.reduce((a, r) => a.add(r.left), D(0));
        const target = want[side].get(price) ?? D(0);
        while (have.gt(target) && live.length > 0) {
          const r = live.pop()!;
          ex.cancel(account, market, { orderId: r.id });
          have = have.sub(r.left);
        }
        if (live.length === 0) levels[side].delete(price);
        else levels[side].set(price, live);
        if (target.gt(have)) adds.push({ side, price, amount: target.sub(have) });
      }
      for (const [price, amount] of want[side]) if (!handled.has(price) && amount.gt(0)) adds.push({ side, price, amount });
    }
    const stockPrec = ex.markets.get(market)?.stockPrec ?? 8;
    for (const a of adds) {
      // a recorded quantity finer than the sim market's lot (e.g. old resting orders on Binance) is cut to the lot
      const amount = a.amount.toDecimalPlaces(stockPrec, Decimal.ROUND_DOWN);
      if (amount.isZero()) continue;
      const r = ex.placeLimit(account, { market, side: a.side, amount, price: D(a.price), stp: 'cancel_new' });
      if (!r.ok || r.order.left.isZero()) continue;
      const list = levels[a.side].get(a.price) ?? [];
      list.push({ id: r.order.orderId, left: r.order.left });
      levels[a.side].set(a.price, list);
    }
    // refresh `left` of partially filled flow orders (a client took part of them)
    for (const x of ex.openOrders(account, { market, limit: 1_000_000 })) {
      for (const r of levels[x.side].get(x.price.toFixed()) ?? []) if (r.id === x.orderId) r.left = x.left;
    }
  };

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
      apply(ex, account, market, snaps[next]!.book);
    },
  };
}

/**
 * A sim config for replaying a recording: the recording's market with ITS rules (replacing a market of
 * the same name), the flow account (internal) funded in both of its assets, and no synthetic flow for
 * that market. Everything else (client accounts, other markets) comes from `base`. Use:
 * `startSim({ config: simConfigForRecording(books.market), marketFlow: createRecordedFlow({ books, speed }) })`.
 */
export function simConfigForRecording(market: WireMarket, base: SimConfigInput = DEFAULT_SIM_CONFIG_INPUT, flowAccount = base.flow?.account ?? 'market'): SimConfig {
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
  return parseSimConfig({
    ...base,
    markets: [
      ...base.markets.filter((m) => m.name !== market.name),
      {
        name: market.name, stock: market.stock, money: market.money, stockPrec: Number(market.stockPrec), moneyPrec: Number(market.moneyPrec),
        minAmount: market.minAmount, minTotal: market.minTotal, maxTotal: market.maxTotal, makerFee: market.makerFee, takerFee: market.takerFee,
      },
    ],
    accounts: withAssets,
    flow: { ...(base.flow ?? {}), account: flowAccount, markets: flowMarkets },
  }, `sim config for ${market.name}`);
}
