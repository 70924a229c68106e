import type { Balances } from '../model/balance.js';
import type { Decimal } from '../model/decimal.js';
import type { OrderState } from '../strategy/context.js';
import type { AccountStatus } from './account-risk.js';

/** One strategy's figures (money values in its market's money asset). */
export interface StrategyFigures {
  readonly id: string;
  readonly market: string;
  readonly fills: number;
  readonly volume: Decimal;
  readonly fees: Decimal;
  /** Realised trading PnL before fees. */
  readonly realised: Decimal;
  /** At the latest mid. */
  readonly unrealised: Decimal;
  /** realised − fees + unrealised. */
  readonly net: Decimal;
  /** Signed base position from the strategy's own fills. */
  readonly inventory: Decimal;
  readonly avgCost: Decimal;
  readonly ordersPerMinute: number;
  readonly liveOrders: number;
  readonly halted: boolean;
  /** Paused by an operator (no new intents). */
  readonly paused: boolean;
}

export interface QuoteView {
  readonly strategyId: string;
  readonly clientOrderId: string;
  readonly side: 'buy' | 'sell';
  readonly price: Decimal;
  readonly left: Decimal;
  readonly state: OrderState;
  readonly tag?: string;
}

export interface MarketStatus {
  readonly market: string;
  readonly mid?: Decimal;
  readonly spread?: Decimal;
  readonly bestBid?: Decimal;
  readonly bestAsk?: Decimal;
  readonly quotes: readonly QuoteView[];
  readonly strategies: readonly StrategyFigures[];
}

export interface StatusSnapshot {
  /** Engine clock, ms. */
  readonly at: number;
  readonly markets: readonly MarketStatus[];
  readonly queueDepth: number;
  readonly unknownOrders: number;
  readonly balances?: Balances;
  /** From the TradingApi's `limiterStats()` when it has one (the RestClient does). */
  readonly rateLimits?: unknown;
  readonly rejections: Readonly<Record<string, number>>;
  /** Account-wide limits' figures, when `risk.account` is configured. */
  readonly account?: AccountStatus;
}

export interface RunSummary {
  readonly startedAt: number;
  readonly stoppedAt: number;
  readonly strategies: readonly StrategyFigures[];
  readonly ordersSubmitted: number;
  readonly ordersCanceled: number;
  readonly unknownOrders: number;
  /** Rejections by reason, e.g. `rules:32`, `risk:max-open-orders`, `venue:10`. */
  readonly rejections: Readonly<Record<string, number>>;
  /** Live orders left on the venue at stop (0 when cancelOnStop). */
  readonly openOrdersLeft: number;
  readonly balances?: Balances;
  readonly account?: AccountStatus;
}

/** Display only: average-cost PnL is exact (Decimal, many digits after a division); people read 8 places. */
function shown(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}

/** A human summary, one fact per line (what `bot run` prints at the end). */
export function formatSummary(s: RunSummary): string {
  const lines: string[] = [];
  const secs = ((s.stoppedAt - s.startedAt) / 1000).toFixed(1);
  lines.push(`run summary (${secs} s)`);
  for (const f of s.strategies) {
    lines.push(
      `  ${f.id} on ${f.market}: fills ${f.fills}, volume ${f.volume.toFixed()}, fees ${f.fees.toFixed()}, ` +
        `realised ${shown(f.realised)}, unrealised ${shown(f.unrealised)}, net ${shown(f.net)}, ` +
        `inventory ${f.inventory.toFixed()}${f.halted ? ' (HALTED by loss limit)' : ''}`,
    );
  }
  lines.push(`  orders: submitted ${s.ordersSubmitted}, cancelled ${s.ordersCanceled}, unknown ${s.unknownOrders}, open at stop ${s.openOrdersLeft}`);
  const rej = Object.entries(s.rejections).sort((a, b) => b[1] - a[1]);
  lines.push(`  rejections: ${rej.length === 0 ? 'none' : rej.map(([r, n]) => `${r} ×${n}`).join(', ')}`);
  if (s.account) {
    const a = s.account;
    lines.push(
      `  account (${a.money}): equity ${a.equity ? shown(a.equity) : '-'}, peak ${a.peak ? shown(a.peak) : '-'}${a.halt ? `, HALTED by ${a.halt.limit}: ${a.halt.reason}` : ''}`,
    );
  }
  if (s.balances) {
    const b = Object.entries(s.balances).map(([t, v]) => `${t} ${v.available.plus(v.freeze).toFixed()}`);
    lines.push(`  balances: ${b.join(', ')}`);
  }
  return lines.join('\n');
}
