/**
 * Figures of one lane of a backtest. Money figures are exact (Decimal, from the engine's PnL ledgers, the venue's
 * fills and its balances); curve statistics (drawdown, Sharpe, Sortino, inventory) come from the sampled equity curve.
 *
 * Definitions:
 * - realised, fees, unrealised, position: the engine's own PnL ledgers (src/engine/pnl.ts, average cost, one per
 *   strategy; see lane-pnl.ts), which the daemon reports too; unrealised marks the open position at the final mid.
 *   Fees are always in the money asset. The average cost is the break-even price of the position, 10 places (return,
 *   turnover and fill ratio, also quotients, 12); the rest is exact.
 * - trading PnL = realised + unrealised − fees (what the strategy's trading made).
 * - equity = money total + stock total × mid (the whole account); equity change also holds the
 *   revaluation of the stock the account started with; return = equity change / initial equity.
 * - strategy PnL curve = equity(t) − (initial money + initial stock × mid(t)): what the strategy made
 *   over simply holding its starting balances. Risk figures are taken on THIS curve, so a price move
 *   of the starting inventory is not credited to (or blamed on) the strategy.
 * - max drawdown: largest fall of the strategy PnL curve from a running peak (money; fraction of the
 *   initial equity).
 * - Sharpe and Sortino: per sampling period (`sampleMs` of virtual time) the change of the strategy PnL
 *   divided by the initial equity (a simple return on capital over holding), risk-free rate 0,
 *   annualised by √(periods per year) with a 365-day year; Sortino divides by the downside deviation
 *   (root mean square of the negative returns over all periods). Undefined (null) when the curve has
 *   fewer than 3 points or no variation. On short runs annualised figures are noisy by nature.
 * - turnover = traded volume (money) / initial equity. Fill ratio = filled base / base ordered, and
 *   orders with at least one fill / orders accepted.
 */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { EquityCurve } from '../replay/equity-curve.js';
import type { FillRecord } from '../replay/virtual-exchange.js';
import type { LanePnl } from './lane-pnl.js';

export interface LaneMetrics {
  readonly fills: number;
  readonly makerFills: number;
  readonly takerFills: number;
  readonly boughtBase: Decimal;
  readonly soldBase: Decimal;
  readonly volume: Decimal;
  readonly fees: Decimal;
  readonly realised: Decimal;
  readonly unrealised: Decimal;
  readonly tradingPnl: Decimal;
  readonly position: Decimal;
  readonly avgCost: Decimal;
  readonly initialEquity: Decimal;
  readonly finalEquity: Decimal;
  readonly equityChange: Decimal;
  readonly returnFraction: Decimal;
  readonly maxDrawdown: number;
  readonly maxDrawdownFraction: number;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly turnover: Decimal;
  readonly fillRatioAmount: Decimal;
  readonly fillRatioOrders: number;
  readonly inventory: { readonly min: number; readonly max: number; readonly mean: number; readonly final: number };
}

export interface MetricsInput {
  readonly market: Market;
  /** The venue's fills (counts, volume, fill ratio). */
  readonly fills: readonly FillRecord[];
  /** The engine's PnL, marked at `lastMid`. */
  readonly pnl: LanePnl;
  readonly equity: EquityCurve;
  readonly sampleMs: number;
  readonly initial: Readonly<Record<string, Decimal>>;
  readonly final: Readonly<Record<string, Decimal>>;
  readonly firstMid: Decimal;
  readonly lastMid: Decimal;
  /** Base amount of every order the venue accepted, and how many there were. */
  readonly orderedBase: Decimal;
  readonly ordersAccepted: number;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

export function drawdown(values: readonly number[]): { money: number; fraction: number } {
  let peak = Number.NEGATIVE_INFINITY;
  let money = 0;
  let fraction = 0;
  for (const v of values) {
    if (v > peak) peak = v;
    const dd = peak - v;
    if (dd > money) money = dd;
    if (peak > 0 && dd / peak > fraction) fraction = dd / peak;
  }
  return { money, fraction };
}

/** Annualised Sharpe and Sortino of the per-period simple returns of `values`. */
export function sharpeSortino(values: readonly number[], periodMs: number): { sharpe: number | null; sortino: number | null } {
  if (values.length < 3) return { sharpe: null, sortino: null };
  const r: number[] = [];
  for (let i = 1; i < values.length; i++) {
    const prev = values[i - 1]!;
    if (prev !== 0) r.push(values[i]! / prev - 1);
  }
  return annualisedRatios(r, periodMs);
}

/** Sharpe and Sortino of a PnL curve: per-period PnL changes as returns on a fixed `capital`. */
export function pnlSharpeSortino(pnl: readonly number[], capital: number, periodMs: number): { sharpe: number | null; sortino: number | null } {
  if (pnl.length < 3 || !(capital > 0)) return { sharpe: null, sortino: null };
  const r: number[] = [];
  for (let i = 1; i < pnl.length; i++) r.push((pnl[i]! - pnl[i - 1]!) / capital);
  return annualisedRatios(r, periodMs);
}

/**
 * The strategy PnL curve: equity over holding the starting balances at each point's mid; at every point (the risk
 * figures), or at the points `at` only (the report's chart: 2,000 of a day's 86,400), NaN for one past the curve's end.
 */
export function strategyPnlCurve(equity: EquityCurve, initialMoney: number, initialStock: number, at?: readonly number[]): number[] {
  const e = equity.column('equity');
  const mid = equity.column('mid');
  const pnlAt = (i: number): number => (i < e.length ? e[i]! - (initialMoney + initialStock * mid[i]!) : Number.NaN);
  if (at !== undefined) return at.map(pnlAt);
  const out: number[] = [];
  for (let i = 0; i < e.length; i++) out.push(pnlAt(i));
  return out;
}

function annualisedRatios(r: readonly number[], periodMs: number): { sharpe: number | null; sortino: number | null } {
  const n = r.length;
  if (n < 2) return { sharpe: null, sortino: null };
  const mean = r.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const down = Math.sqrt(r.reduce((a, b) => a + (b < 0 ? b * b : 0), 0) / n);
  const k = Math.sqrt(YEAR_MS / periodMs);
  return { sharpe: sd > 0 ? (mean / sd) * k : null, sortino: down > 0 ? (mean / down) * k : null };
}

export function laneMetrics(i: MetricsInput): LaneMetrics {
  const { market } = i;
  let bought = ZERO;
  let sold = ZERO;
  let volume = ZERO;
  let maker = 0;
  const orders = new Set<number>();
  for (const f of i.fills) {
    if (f.side === 'buy') bought = bought.add(f.amount);
    else sold = sold.add(f.amount);
    volume = volume.add(f.deal);
    if (f.role === 'maker') maker += 1;
    orders.add(f.orderId);
  }
  const ledger = i.pnl;
  const equityOf = (b: Readonly<Record<string, Decimal>>, mid: Decimal): Decimal => (b[market.money] ?? ZERO).add((b[market.stock] ?? ZERO).mul(mid));
  const initialEquity = equityOf(i.initial, i.firstMid);
  const finalEquity = equityOf(i.final, i.lastMid);
  const equityChange = finalEquity.sub(initialEquity);
  const pnl = strategyPnlCurve(i.equity, (i.initial[market.money] ?? ZERO).toNumber(), (i.initial[market.stock] ?? ZERO).toNumber());
  const capital = initialEquity.toNumber();
  const ddMoney = drawdown(pnl).money;
  const dd = { money: ddMoney, fraction: capital > 0 ? ddMoney / capital : 0 };
  const ratios = pnlSharpeSortino(pnl, capital, i.sampleMs);
  const inv = i.equity.column('inventory');
  return {
    fills: i.fills.length,
    makerFills: maker,
    takerFills: i.fills.length - maker,
    boughtBase: bought,
    soldBase: sold,
    volume,
    fees: ledger.fees,
    realised: ledger.realised,
    unrealised: ledger.unrealised,
    tradingPnl: ledger.net,
    position: ledger.position,
    avgCost: ledger.avgCost,
    initialEquity,
    finalEquity,
    equityChange,
    returnFraction: initialEquity.isZero() ? ZERO : equityChange.div(initialEquity).toDecimalPlaces(12),
    maxDrawdown: dd.money,
    maxDrawdownFraction: dd.fraction,
    sharpe: ratios.sharpe,
    sortino: ratios.sortino,
    turnover: initialEquity.isZero() ? ZERO : volume.div(initialEquity).toDecimalPlaces(12),
    fillRatioAmount: i.orderedBase.isZero() ? ZERO : bought.add(sold).div(i.orderedBase).toDecimalPlaces(12),
    fillRatioOrders: i.ordersAccepted === 0 ? 0 : orders.size / i.ordersAccepted,
    inventory: { ...stats(inv), final: (i.final[market.stock] ?? ZERO).toNumber() },
  };
}

function stats(v: ArrayLike<number> & Iterable<number>): { min: number; max: number; mean: number } {
  if (v.length === 0) return { min: 0, max: 0, mean: 0 };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const x of v) {
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  return { min, max, mean: sum / v.length };
}
