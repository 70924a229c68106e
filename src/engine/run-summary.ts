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
  /** Why it is halted (the loss limit's figures, `failed: <error>`, an account limit). */
  readonly haltReason?: string;
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
  /**
   * Our orders left on the venue at stop: what its open-orders list shows of ours after the stop's cancels (0 when
   * cancelOnStop and the cancels worked), or the orders the engine still tracks live when the list could not be read.
   */
  readonly openOrdersLeft: number;
  /** Client order ids of `openOrdersLeft`, as the venue listed them after the stop (absent in a dry run). */
  readonly openAtStop?: readonly string[];
  /**
   * Orders whose state the stop could not confirm (still unknown, or their market's open orders could not be read):
   * the daemon leaves the venue's dead-man timer armed for their markets instead of clearing it.
   */
  readonly inDoubt?: readonly string[];
  readonly balances?: Balances;
  readonly account?: AccountStatus;
}

/** Display only: average-cost PnL is exact (Decimal, many digits after a division); people read 8 places. */
function shown(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}

/**
 * A strategy's figures as the status line and the summary both show them, with one meaning per name: `fills` counts
 * deals (one order can fill in several), `realised` is before fees, `net` = realised − fees + unrealised.
 */
export function strategyFigures(f: StrategyFigures, separator = ' '): string {
  return [
    `fills ${f.fills}`,
    `volume ${shown(f.volume)}`,
    `realised ${shown(f.realised)}`,
    `fees ${shown(f.fees)}`,
    `unrealised ${shown(f.unrealised)}`,
    `net ${shown(f.net)}`,
    `inventory ${f.inventory.toFixed()}`,
  ].join(separator);
}

/** A human summary, one fact per line (what `bot run` prints at the end). */
export function formatSummary(s: RunSummary): string {
  const lines: string[] = [];
  const secs = ((s.stoppedAt - s.startedAt) / 1000).toFixed(1);
  lines.push(`run summary (${secs} s)`);
  for (const f of s.strategies) {
    lines.push(`  ${f.id} on ${f.market}: ${strategyFigures(f, ', ')}${f.halted ? ` (HALTED: ${f.haltReason ?? 'loss limit'})` : ''}`);
  }
  lines.push(`  orders: submitted ${s.ordersSubmitted}, cancelled ${s.ordersCanceled}, unknown ${s.unknownOrders}, open at stop ${s.openOrdersLeft}`);
  if (s.openAtStop !== undefined && s.openAtStop.length > 0) lines.push(`  open on the venue after the stop: ${s.openAtStop.join(', ')}`);
  if (s.inDoubt !== undefined && s.inDoubt.length > 0) {
    lines.push(`  IN DOUBT (the venue could not confirm their state; its dead-man timer stays armed): ${s.inDoubt.join(', ')}`);
  }
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
