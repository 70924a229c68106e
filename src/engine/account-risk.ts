import { D, fmt, type Decimal } from '../model/decimal.js';
import { gt, gte } from '../model/decimal-compare.js';
import { ConfigError } from '../model/errors.js';
import type { Side } from '../model/order.js';
import { accountEquity, grossNotional, onlyReduces, sideLeft, type ExposureSources } from './account-exposure.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import type { AccountLimitName, AccountMarkWhy } from './journal-records.js';
import type { ReplayedAccount } from './journal-replay.js';
import type { RiskDecision } from './risk-limits.js';

/** `risk.account` of the daemon config: limits over all strategies together, in their one money asset. Absent = none. */
export interface AccountLimits {
  /** Peak account equity (over the journal's whole life) minus current equity at which every strategy is halted. */
  readonly maxDrawdown?: Decimal | undefined;
  /** Equity at the start of the UTC day (engine clock) minus current equity at which every strategy is halted. */
  readonly maxDailyLoss?: Decimal | undefined;
  /** Pre-trade: Σ |position| × mid + Σ live orders' left × price + the new order must stay at or below this. */
  readonly maxGrossNotional?: Decimal | undefined;
}

/**
 * A new peak is journalled once it is more than this share of `maxDrawdown` above the last one journalled: after a
 * crash the restored peak is at most 1 % of the limit below the true one, and a rising equity writes about a hundred
 * records per limit's worth of gains instead of one per book poll.
 */
export const PEAK_STEP_OF_DRAWDOWN = D('0.01');

const DAY_MS = 86_400_000;

export interface AccountHalt {
  readonly limit: AccountLimitName;
  readonly reason: string;
  /** Engine clock, ms. */
  readonly at: number;
  /** Learnt from the journal at start (the strategies start paused), not crossed in this run. */
  readonly restored: boolean;
}

/** What the status, the dashboard and /metrics show. Money in `money`. */
export interface AccountStatus {
  readonly money: string;
  readonly limits: AccountLimits;
  readonly equity?: Decimal;
  readonly peak?: Decimal;
  readonly drawdown?: Decimal;
  /** `YYYY-MM-DD`, UTC. */
  readonly day?: string;
  readonly dayStart?: Decimal;
  /** Day start − equity (negative on a winning day). */
  readonly dailyLoss?: Decimal;
  readonly grossNotional: Decimal;
  readonly halt?: AccountHalt;
}

export interface AccountRiskOptions {
  readonly limits: AccountLimits;
  /** The money asset every strategy's market shares (see `accountMoneyAsset`). */
  readonly money: string;
  readonly sources: ExposureSources;
  readonly journal: Journal;
  readonly now: () => number;
  emit(e: EngineEvent): void;
  /** Halts every strategy with the engine's own halt (unsubscribe, `halt` record, `risk-halt` event, cancel its orders). */
  haltAll(reason: string): void;
}

/**
 * Account-wide limits over all strategies: drawdown from the peak of account equity and the UTC day's loss, checked
 * whenever equity can move (a book, a fill), and the gross notional checked before each order. Crossing a loss limit
 * journals one `account-halt`, emits `account-halt`, then halts every strategy through the engine's halt. A halted
 * account stays halted (a new UTC day does not re-arm it, nor does a restart: the strategies then start paused) until
 * an operator resumes a strategy, which re-arms the limits from the equity of that moment (`rearm`).
 */
export class AccountRisk {
  private peak: Decimal | undefined;
  private journalledPeak: Decimal | undefined;
  private dayNumber: number | undefined;
  private day: string | undefined;
  private dayStart: Decimal | undefined;
  private lastEquity: Decimal | undefined;
  private haltState: AccountHalt | undefined;
  private stopped = false;
  private readonly peakStep: Decimal | undefined;

  constructor(private readonly o: AccountRiskOptions) {
    this.peakStep = o.limits.maxDrawdown?.times(PEAK_STEP_OF_DRAWDOWN);
  }

  /** The account's halt, if any (crossed in this run, or restored from the journal). */
  get halt(): AccountHalt | undefined {
    return this.haltState;
  }

  /** Takes the journal's marks back before the strategies start (the PnL ledgers are restored from the fills). */
  restore(state: ReplayedAccount | undefined): void {
    if (state === undefined) return;
    this.peak = state.peak;
    this.journalledPeak = state.peak;
    this.day = state.day;
    this.dayNumber = Math.floor(Date.parse(`${state.day}T00:00:00Z`) / DAY_MS);
    this.dayStart = state.dayStart;
    if (state.halt) this.haltState = { ...state.halt, at: state.halt.t, restored: true };
  }

  /** Equity may have moved (a book or a fill): peak and day kept (journalled when material), loss limits checked. */
  check(): void {
    if (this.stopped) return;
    const equity = accountEquity(this.o.sources);
    if (equity === undefined) return;
    this.lastEquity = equity;
    const now = this.o.now();
    let why: AccountMarkWhy | undefined;
    if (this.peak === undefined) {
      this.peak = equity;
      why = 'first';
    } else if (gt(equity, this.peak)) {
      this.peak = equity;
      if (this.peakStep !== undefined && gt(equity.minus(this.journalledPeak ?? equity), this.peakStep)) why = 'peak';
    }
    const dayNumber = Math.floor(now / DAY_MS);
    if (dayNumber !== this.dayNumber) {
      this.dayNumber = dayNumber;
      this.day = utcDay(now);
      this.dayStart = equity;
      why ??= 'day';
    }
    if (why !== undefined) this.mark(why, equity);
    if (this.haltState !== undefined) return;
    const { maxDrawdown, maxDailyLoss } = this.o.limits;
    const drawdown = this.peak.minus(equity);
    if (maxDrawdown !== undefined && gte(drawdown, maxDrawdown)) {
      return this.trip(
        'max-drawdown',
        `account drawdown ${shown(drawdown)} ${this.o.money} from the peak ${shown(this.peak)} reached the limit ${maxDrawdown.toFixed()} (equity ${shown(equity)})`,
        equity,
      );
    }
    const loss = this.dayStart!.minus(equity);
    if (maxDailyLoss !== undefined && gte(loss, maxDailyLoss)) {
      this.trip(
        'max-daily-loss',
        `account loss ${shown(loss)} ${this.o.money} since the start of ${this.day} UTC (equity then ${shown(this.dayStart!)}) reached the limit ${maxDailyLoss.toFixed()} (equity ${shown(equity)})`,
        equity,
      );
    }
  }

  /** Pre-trade check of one quantized order of `strategyId` against `maxGrossNotional`. A rejection is a value. */
  checkOrder(strategyId: string, order: { readonly side: Side; readonly price: Decimal; readonly amount: Decimal }): RiskDecision {
    const limit = this.o.limits.maxGrossNotional;
    if (limit === undefined) return OK;
    const s = this.o.sources;
    const mine = s.strategies.find((x) => x.id === strategyId);
    if (mine && onlyReduces(mine.ledger.currentPosition(), sideLeft(s.liveOrders(), strategyId, order.side), order)) return OK;
    const gross = grossNotional(s);
    const added = order.amount.times(order.price);
    const total = gross.total.plus(added);
    if (!gt(total, limit)) return OK;
    return {
      ok: false,
      reason: 'account-gross-notional',
      message: `account gross notional would be ${shown(total)} ${this.o.money} (positions ${shown(gross.positions)}, open orders ${shown(gross.orders)}, this order ${shown(added)}), limit ${limit.toFixed()}`,
    };
  }

  /**
   * An operator resumed a strategy of a halted account: the loss so far is acknowledged and the limits count afresh,
   * the peak and the day's start set to the equity now (journalled, so a restart does not halt again). With no equity
   * known yet (a position in a market without a book) the old marks stay, and the next check may halt again: the safe
   * side. Returns false when the account was not halted.
   */
  rearm(source: string): boolean {
    if (this.haltState === undefined) return false;
    this.haltState = undefined;
    const equity = accountEquity(this.o.sources);
    if (equity !== undefined) {
      this.lastEquity = equity;
      this.peak = equity;
      this.dayNumber = Math.floor(this.o.now() / DAY_MS);
      this.day = utcDay(this.o.now());
      this.dayStart = equity;
    }
    if (this.peak !== undefined) this.mark('resume', equity, source);
    return true;
  }

  /** The runtime is stopping: the exact peak is written if it rose since the last mark, and no check runs any more. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.peak !== undefined && this.journalledPeak !== undefined && gt(this.peak, this.journalledPeak)) this.mark('stop', this.lastEquity);
  }

  status(): AccountStatus {
    const equity = accountEquity(this.o.sources);
    return {
      money: this.o.money,
      limits: this.o.limits,
      ...(equity !== undefined ? { equity } : {}),
      ...(this.peak !== undefined ? { peak: this.peak } : {}),
      ...(this.peak !== undefined && equity !== undefined ? { drawdown: this.peak.minus(equity) } : {}),
      ...(this.day !== undefined ? { day: this.day } : {}),
      ...(this.dayStart !== undefined ? { dayStart: this.dayStart } : {}),
      ...(this.dayStart !== undefined && equity !== undefined ? { dailyLoss: this.dayStart.minus(equity) } : {}),
      grossNotional: grossNotional(this.o.sources).total,
      ...(this.haltState ? { halt: this.haltState } : {}),
    };
  }

  private mark(why: AccountMarkWhy, equity: Decimal | undefined, source?: string): void {
    this.journalledPeak = this.peak;
    this.o.journal.append({
      t: this.o.now(),
      type: 'account-mark',
      why,
      peak: fmt(this.peak!),
      day: this.day!,
      dayStart: fmt(this.dayStart!),
      ...(equity !== undefined ? { equity: fmt(equity) } : {}),
      ...(source !== undefined ? { source } : {}),
    });
  }

  private trip(limit: AccountLimitName, reason: string, equity: Decimal): void {
    const at = this.o.now();
    this.haltState = { limit, reason, at, restored: false };
    this.journalledPeak = this.peak;
    this.o.journal.append({
      t: at,
      type: 'account-halt',
      limit,
      reason,
      equity: fmt(equity),
      peak: fmt(this.peak!),
      day: this.day!,
      dayStart: fmt(this.dayStart!),
    });
    this.o.emit({ type: 'account-halt', at, limit, reason });
    this.o.haltAll(`account limit: ${reason}`);
  }
}

const OK: RiskDecision = { ok: true };

/**
 * The engine's account options from the runtime's: none when no limit is set (nothing is then computed on any book),
 * else the limits and the money asset. Refuses strategies whose markets have different money assets (their PnL does
 * not add up without a conversion rate, which the engine does not have) with a ConfigError naming `where`.
 */
export function accountSetup(
  account: { readonly limits: AccountLimits; readonly where?: string | undefined } | undefined,
  runs: readonly { readonly id: string; readonly market: { readonly money: string } }[],
): { account?: { limits: AccountLimits; money: string } } {
  const limits = account?.limits;
  if (limits === undefined || (limits.maxDrawdown === undefined && limits.maxDailyLoss === undefined && limits.maxGrossNotional === undefined)) return {};
  const asset = accountMoneyAsset(runs.map((r) => ({ id: r.id, money: r.market.money })));
  if ('mixed' in asset) {
    throw new ConfigError(
      `${account!.where ?? 'risk.account'}: account limits add the strategies' PnL in one money asset, but their markets are in ${asset.mixed}; trade markets of one money asset or drop risk.account`,
    );
  }
  return { account: { limits, money: asset.money } };
}

/** Account limits add the strategies' PnL, so their markets must share one money asset; returns it, or the mix. */
export function accountMoneyAsset(
  strategies: readonly { readonly id: string; readonly money: string }[],
): { readonly money: string } | { readonly mixed: string } {
  const byMoney = new Map<string, string[]>();
  for (const s of strategies) byMoney.set(s.money, [...(byMoney.get(s.money) ?? []), s.id]);
  if (byMoney.size === 1) return { money: [...byMoney.keys()][0]! };
  return { mixed: [...byMoney].map(([money, ids]) => `${money} (${ids.join(', ')})`).join(' and ') };
}

/** `YYYY-MM-DD` of an engine time, UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Display only: PnL sums carry many decimals; people read 8. The journal's fields keep the exact values. */
function shown(value: Decimal): string {
  return value.toDecimalPlaces(8).toFixed();
}
