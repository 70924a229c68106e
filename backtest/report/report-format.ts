/**
 * How the backtest report shows its figures: money and prices at the market's price precision, amounts at its
 * amount precision, fractions as percentages, counts as they are. report.json keeps the exact values; only what a
 * person reads is rounded (the exact average-cost PnL carries 11-14 decimals that no venue could ever pay out).
 */
import { D } from '../../src/model/decimal.js';

/** The market's decimal places (its `moneyPrec` and `stockPrec`). */
export interface ReportPrecision {
  readonly money: number;
  readonly stock: number;
}

/** A span of data shorter than this shows no Sharpe or Sortino: annualising minutes of returns says nothing. */
export const RISK_RATIO_MIN_SPAN_SEC = 86_400;

export type FigureKind = 'money' | 'amount' | 'fraction' | 'count' | 'ratio' | 'inventory';

/** What each lane metric is, for rounding (a key not listed is shown as it is). */
export const FIGURE_KIND: Readonly<Record<string, FigureKind>> = {
  tradingPnl: 'money',
  realised: 'money',
  unrealised: 'money',
  fees: 'money',
  equityChange: 'money',
  maxDrawdown: 'money',
  volume: 'money',
  initialEquity: 'money',
  finalEquity: 'money',
  avgCost: 'money',
  position: 'amount',
  boughtBase: 'amount',
  soldBase: 'amount',
  returnFraction: 'fraction',
  maxDrawdownFraction: 'fraction',
  turnover: 'fraction',
  fillRatioAmount: 'fraction',
  fillRatioOrders: 'fraction',
  fills: 'count',
  makerFills: 'count',
  takerFills: 'count',
  sharpe: 'ratio',
  sortino: 'ratio',
  inventory: 'inventory',
};

/** A decimal string or number rounded half-up to `places` (exact for decimal strings), e.g. `-19.74`. */
export function fixed(value: string | number, places: number): string {
  // toFixed rounds (half-up, the Decimal's mode) and prints in one step: the page prints thousands of fills
  const s = D(typeof value === 'number' ? value.toString() : value).toFixed(places);
  // no "-0.00" for a value that rounds to zero
  return s.charCodeAt(0) === 45 && NEGATIVE_ZERO.test(s) ? s.slice(1) : s;
}

const NEGATIVE_ZERO = /^-0(\.0*)?$/;

/** A fraction as a percentage with 4 significant digits at most, e.g. `0.1589 %`. */
export function percent(value: string | number): string {
  const n = Number(value) * 100;
  if (!Number.isFinite(n)) return String(value);
  if (n === 0) return '0 %';
  return `${Number(n.toPrecision(4))} %`;
}

/** One metric as the report shows it; undefined/null and ratios withheld are `n/a`. */
export function showFigure(key: string, value: unknown, p: ReportPrecision, o: { readonly riskRatios: boolean }): string {
  const kind = FIGURE_KIND[key];
  if (kind === 'ratio' && !o.riskRatios) return 'n/a';
  if (value === null || value === undefined) return 'n/a';
  if (kind === 'inventory' && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    return ['min', 'max', 'mean', 'final'].map((k) => (typeof v[k] === 'number' ? fixed(v[k], p.stock) : '–')).join(' / ');
  }
  if (typeof value !== 'string' && typeof value !== 'number') return JSON.stringify(value);
  if (kind === 'money') return fixed(value, p.money);
  if (kind === 'amount') return fixed(value, p.stock);
  if (kind === 'fraction') return percent(value);
  if (kind === 'ratio') return Number(value).toFixed(2);
  return String(value);
}
