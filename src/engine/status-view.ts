import type { Balances } from '../model/balance.js';
import type { OrderBook } from '../model/book.js';
import { bestPrice } from '../model/book-levels.js';
import type { Decimal } from '../model/decimal.js';
import type { AccountStatus } from './account-risk.js';
import { ordersInWindow } from './risk-limits.js';
import type { OrderTracker } from './order-tracker.js';
import type { PnlLedger } from './pnl.js';
import { strategyFigures, type MarketStatus, type RunSummary, type StatusSnapshot, type StrategyFigures } from './run-summary.js';
import type { StrategyRun } from './strategy-run.js';

export function midOf(book: OrderBook | undefined): Decimal | undefined {
  if (book === undefined) return undefined;
  const bid = bestPrice(book, 'bids');
  const ask = bestPrice(book, 'asks');
  if (bid && ask) return bid.plus(ask).div(2);
  return bid ?? ask;
}

export interface StatusInput {
  readonly at: number;
  readonly runs: readonly StrategyRun[];
  readonly books: ReadonlyMap<string, OrderBook>;
  readonly tracker: OrderTracker;
  readonly ledgers: ReadonlyMap<string, PnlLedger>;
  readonly queueDepth: number;
  readonly rejections: Readonly<Record<string, number>>;
  readonly balances: Balances | undefined;
  readonly rateLimits: unknown;
  readonly account?: AccountStatus;
}

/** The status snapshot: per market its book top, own quotes and each strategy's figures. Pure. */
export function buildStatus(i: StatusInput): StatusSnapshot {
  const markets: MarketStatus[] = [];
  for (const name of new Set(i.runs.map((r) => r.market.name))) {
    const book = i.books.get(name);
    const mid = midOf(book);
    const bestBid = book?.bids[0]?.price;
    const bestAsk = book?.asks[0]?.price;
    const runs = i.runs.filter((r) => r.market.name === name);
    const quotes = runs.flatMap((r) =>
      i.tracker.live(r.id).map((o) => ({
        strategyId: r.id,
        clientOrderId: o.clientOrderId,
        side: o.side,
        price: o.price,
        left: o.left,
        state: o.state,
        ...(o.tag !== undefined ? { tag: o.tag } : {}),
      })),
    );
    const strategies: StrategyFigures[] = runs.map((r) => {
      const ledger = i.ledgers.get(r.id)!;
      const s = ledger.snapshot();
      return {
        id: r.id,
        market: name,
        fills: s.fills,
        volume: s.volume,
        fees: s.fees,
        realised: s.realised,
        unrealised: ledger.unrealised(mid),
        net: ledger.net(mid),
        inventory: s.position,
        avgCost: s.avgCost,
        ordersPerMinute: ordersInWindow(r.recentOrderTimes, i.at),
        liveOrders: i.tracker.live(r.id).length,
        halted: r.halted,
        ...(r.haltReason !== undefined ? { haltReason: r.haltReason } : {}),
        paused: r.paused,
      };
    });
    markets.push({
      market: name,
      ...(mid ? { mid } : {}),
      ...(bestBid && bestAsk ? { spread: bestAsk.minus(bestBid), bestBid, bestAsk } : {}),
      quotes,
      strategies,
    });
  }
  return {
    at: i.at,
    markets,
    queueDepth: i.queueDepth,
    unknownOrders: i.tracker.liveOrders().filter((o) => o.state === 'unknown').length,
    ...(i.balances ? { balances: i.balances } : {}),
    ...(i.rateLimits !== undefined ? { rateLimits: i.rateLimits } : {}),
    rejections: { ...i.rejections },
    ...(i.account ? { account: i.account } : {}),
  };
}

export function buildSummary(i: {
  startedAt: number;
  stoppedAt: number;
  status: StatusSnapshot;
  counters: { submitted: number; canceled: number; unknown: number };
  openOrdersLeft: number;
  openAtStop?: readonly string[];
  inDoubt?: readonly string[];
}): RunSummary {
  return {
    startedAt: i.startedAt,
    stoppedAt: i.stoppedAt,
    strategies: i.status.markets.flatMap((m) => m.strategies),
    ordersSubmitted: i.counters.submitted,
    ordersCanceled: i.counters.canceled,
    unknownOrders: i.counters.unknown,
    rejections: i.status.rejections,
    openOrdersLeft: i.openOrdersLeft,
    ...(i.openAtStop !== undefined ? { openAtStop: i.openAtStop } : {}),
    ...(i.inDoubt !== undefined ? { inDoubt: i.inDoubt } : {}),
    ...(i.status.balances ? { balances: i.status.balances } : {}),
    ...(i.status.account ? { account: i.status.account } : {}),
  };
}

/**
 * One status line for the daemon's log (`mid`, spread, quotes, each strategy's figures, orders/min, headroom, queue).
 * The figures are the run summary's, named and rounded as there, so the last status line and the summary agree.
 */
export function formatStatusLine(s: StatusSnapshot): string {
  const parts: string[] = [];
  for (const m of s.markets) {
    const quotes = m.quotes
      .map(
        (q) =>
          `${q.side === 'buy' ? 'B' : 'S'} ${q.left.toFixed()}@${q.price.toFixed()}${q.state === 'open' || q.state === 'partially-filled' ? '' : `(${q.state})`}`,
      )
      .join(' ');
    const figs = m.strategies
      .map((f) => `${f.id}: ${strategyFigures(f)} orders/min ${f.ordersPerMinute}${f.halted ? ' HALTED' : ''}${f.paused ? ' PAUSED' : ''}`)
      .join('; ');
    parts.push(`${m.market} mid ${m.mid?.toDecimalPlaces(8).toFixed() ?? '-'} spread ${m.spread?.toFixed() ?? '-'} | quotes [${quotes}] | ${figs}`);
  }
  if (s.account) parts.push(accountLine(s.account));
  parts.push(`queue ${s.queueDepth}${s.unknownOrders > 0 ? ` unknown ${s.unknownOrders}` : ''}${headroom(s.rateLimits)}`);
  return parts.join(' || ');
}

/** The account limits' figures: equity, peak, drawdown, the day's loss, and the halt if any. */
export function accountLine(a: AccountStatus): string {
  const d = (x: Decimal | undefined): string => x?.toDecimalPlaces(6).toFixed() ?? '-';
  const halt = a.halt ? ` HALTED (${a.halt.limit}${a.halt.restored ? ', since an earlier run' : ''})` : '';
  return `account ${a.money}: equity ${d(a.equity)} peak ${d(a.peak)} drawdown ${d(a.drawdown)} day loss ${d(a.dailyLoss)}${halt}`;
}

/** Best-effort reading of RestClient.limiterStats(): the tightest bucket's used/limit. */
function headroom(stats: unknown): string {
  if (!stats || typeof stats !== 'object') return '';
  let worst: { name: string; used: number; limit: number } | undefined;
  const entries = Array.isArray(stats)
    ? stats.map((v, i) => [String((v as { bucket?: string; name?: string }).bucket ?? (v as { name?: string }).name ?? i), v] as const)
    : Object.entries(stats);
  for (const [name, v] of entries) {
    const rec = v as { inWindow?: number; limit?: number };
    if (typeof rec?.inWindow !== 'number' || typeof rec.limit !== 'number' || rec.limit <= 0) continue;
    if (!worst || rec.inWindow / rec.limit > worst.used / worst.limit) worst = { name, used: rec.inWindow, limit: rec.limit };
  }
  return worst ? ` | rate ${worst.name} ${worst.used}/${worst.limit} (${Math.round(100 - (100 * worst.used) / worst.limit)}% free)` : '';
}
