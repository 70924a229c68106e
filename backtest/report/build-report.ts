/**
 * The backtest report as plain JSON (Decimals as strings): run facts, per-lane figures (optimistic and
 * pessimistic fill assumptions), the band between them, every fill, and down-sampled series for charts.
 */
import { D, Decimal, ZERO } from '../../src/model/decimal.js';
import type { LaneView, ReplayOutcome } from '../replay/lane-view.js';
import { lanePnl } from './lane-pnl.js';
import { laneMetrics, strategyPnlCurve, type LaneMetrics } from './metrics.js';
import { RISK_RATIO_MIN_SPAN_SEC, type ReportPrecision } from './report-format.js';
import { DEFAULT_FILL_MODEL, type FillModelParams } from '../../src/fill-model/fill-model-params.js';

export interface ReportFill {
  readonly t: number;
  readonly side: 'buy' | 'sell';
  readonly role: 'maker' | 'taker';
  readonly price: string;
  readonly amount: string;
  readonly deal: string;
  readonly fee: string;
  readonly clientOrderId: string;
}

export interface LaneReport {
  readonly assumption: string;
  readonly metrics: Record<string, unknown>;
  readonly initialBalances: Record<string, string>;
  readonly finalBalances: Record<string, string>;
  readonly orders: { readonly accepted: number; readonly canceled: number; readonly intents: number };
  /** Engine rejections (`rules:32`, `risk:...`, `venue:10`) and venue-side ones, by reason. */
  readonly rejections: Record<string, number>;
  readonly requests: Record<string, number>;
  readonly errors: readonly string[];
  readonly fills: readonly ReportFill[];
}

export interface BacktestReport {
  readonly generatedBy: string;
  readonly market: string;
  readonly source: string | null;
  readonly dataFiles: readonly string[];
  readonly start: string;
  readonly end: string;
  readonly durationSec: number;
  readonly snapshots: number;
  readonly trades: number;
  readonly sampling: string;
  readonly fillModel: string;
  /** Stopped before the end of the data (Ctrl-C): the figures cover start..end only. */
  readonly partial: boolean;
  /** The market's decimal places, to which the page and the summary round prices, amounts and money. */
  readonly precision: ReportPrecision;
  /** The market's two assets (the balances' keys). */
  readonly assets: { readonly stock: string; readonly money: string };
  /**
   * Whether the span is long enough (RISK_RATIO_MIN_SPAN_SEC) for the annualised Sharpe and Sortino to mean anything;
   * the page and the summary show them as n/a otherwise (the lanes' metrics keep the numbers for sweeps).
   */
  readonly riskRatios: boolean;
  /** The optimistic lane's parameters this run used (fill-model-params.ts). */
  readonly fillModelParams: FillModelParams;
  /** The data's fee rates as fractions (0.001 = 0.1 %), which every fill paid. */
  readonly fees: { readonly maker: string; readonly taker: string };
  readonly lanes: readonly LaneReport[];
  /** [pessimistic, optimistic] of the headline figures. */
  readonly band: Record<string, [string, string]>;
  readonly series: {
    readonly t: readonly number[];
    readonly mid: readonly number[];
    readonly equity: Record<string, readonly number[]>;
    /** Strategy PnL over holding the starting balances (see metrics.ts), per lane. */
    readonly pnl: Record<string, readonly number[]>;
    readonly inventory: Record<string, readonly number[]>;
  };
}

function toJson(v: unknown): unknown {
  if (v instanceof Decimal) return v.toFixed();
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

function balancesOf(b: Readonly<Record<string, Decimal>>): Record<string, string> {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v.toFixed()]));
}

/** At most `max` evenly spaced indices (always the first and last). */
function pick(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  for (let k = 0; k < max; k++) out.push(Math.round((k * (n - 1)) / (max - 1)));
  return out;
}

/** What the report notes when the engine's ledgers and the venue's fills disagree (its PnL is the ledgers'). */
function ledgerProblems(lane: LaneView, ledgerFills: number): string[] {
  if (lane.summary === undefined) return ['the engine left no summary: its PnL figures are zero'];
  const venue = lane.exchange.fills.length;
  return ledgerFills === venue ? [] : [`the engine's PnL ledgers hold ${ledgerFills} fills, the venue made ${venue}: the PnL figures are the ledgers'`];
}

export function computeLaneMetrics(
  result: ReplayOutcome,
  lane: LaneView,
  initial: Readonly<Record<string, Decimal>>,
): { metrics: LaneMetrics; final: Record<string, Decimal>; problems: string[] } {
  const m = result.market;
  const final = { [m.stock]: lane.exchange.total(m.stock), [m.money]: lane.exchange.total(m.money) };
  const first = lane.equity.at(0);
  const last = lane.equity.at(-1);
  const lastMid = lane.marks.lastMid ?? (last ? D(last.mid) : ZERO);
  const pnl = lanePnl(lane.summary?.strategies ?? [], lane.marks.engineMid, lastMid);
  const metrics = laneMetrics({
    market: m,
    fills: lane.exchange.fills,
    pnl,
    equity: lane.equity,
    sampleMs: result.sampleMs,
    initial,
    final,
    firstMid: first ? D(first.mid) : ZERO,
    lastMid,
    orderedBase: lane.exchange.orderedBase,
    ordersAccepted: lane.exchange.placed,
  });
  return { metrics, final, problems: ledgerProblems(lane, pnl.fills) };
}

export function buildReport(
  result: ReplayOutcome,
  o: { files: readonly string[]; initial: Readonly<Record<string, Decimal>>; fillModelDoc: string; fillModelParams?: FillModelParams; maxPoints?: number },
): BacktestReport {
  const m = result.market;
  const initial = { [m.stock]: o.initial[m.stock] ?? ZERO, [m.money]: o.initial[m.money] ?? ZERO };
  const lanes: LaneReport[] = [];
  const byLane = new Map<string, LaneMetrics>();
  for (const lane of result.lanes) {
    const { metrics, final, problems } = computeLaneMetrics(result, lane, initial);
    byLane.set(lane.assumption, metrics);
    const rejections: Record<string, number> = {};
    for (const [k, v] of lane.rejections) rejections[k] = v;
    for (const [k, v] of lane.exchange.rejections) rejections[`venue-side:${k}`] = v;
    lanes.push({
      assumption: lane.assumption,
      metrics: toJson(metrics) as Record<string, unknown>,
      initialBalances: balancesOf(initial),
      finalBalances: balancesOf(final),
      orders: { accepted: lane.exchange.placed, canceled: lane.exchange.canceled, intents: lane.intents.length },
      rejections,
      requests: Object.fromEntries(lane.venue.calls),
      errors: [...problems, ...lane.errors.slice(0, 50)],
      fills: lane.exchange.fills.map((f) => ({
        t: f.t,
        side: f.side,
        role: f.role,
        price: f.price.toFixed(),
        amount: f.amount.toFixed(),
        deal: f.deal.toFixed(),
        fee: f.fee.toFixed(),
        clientOrderId: f.clientOrderId,
      })),
    });
  }
  const band: Record<string, [string, string]> = {};
  const pes = byLane.get('pessimistic');
  const opt = byLane.get('optimistic');
  if (pes && opt) {
    for (const k of ['tradingPnl', 'equityChange', 'realised', 'fees', 'volume'] as const) band[k] = [pes[k].toFixed(), opt[k].toFixed()];
    band['fills'] = [String(pes.fills), String(opt.fills)];
  }
  const ref = result.lanes[0];
  const idx = pick(ref?.equity.length ?? 0, o.maxPoints ?? 2000);
  const refT = ref?.equity.column('t') ?? [];
  const refMid = ref?.equity.column('mid') ?? [];
  const equity: Record<string, number[]> = {};
  const pnl: Record<string, number[]> = {};
  const inventory: Record<string, number[]> = {};
  const initialMoney = initial[m.money]!.toNumber();
  const initialStock = initial[m.stock]!.toNumber();
  for (const lane of result.lanes) {
    const equityColumn = lane.equity.column('equity');
    const inventoryColumn = lane.equity.column('inventory');
    equity[lane.assumption] = idx.map((i) => equityColumn[i] ?? Number.NaN);
    pnl[lane.assumption] = strategyPnlCurve(lane.equity, initialMoney, initialStock, idx);
    inventory[lane.assumption] = idx.map((i) => inventoryColumn[i] ?? Number.NaN);
  }
  return {
    generatedBy: 'bot backtest',
    market: m.name,
    source: result.source ?? null,
    dataFiles: o.files,
    start: new Date(result.startT).toISOString(),
    end: new Date(result.endT).toISOString(),
    durationSec: (result.endT - result.startT) / 1000,
    snapshots: result.snapshots,
    trades: result.trades,
    sampling: `equity sampled every ${result.sampleMs} ms of virtual time at the recorded mid; drawdown, Sharpe and Sortino on the strategy PnL over holding the starting balances (per-period PnL change / initial equity), risk-free 0, annualised by sqrt(periods per 365-day year) and shown only for a day of data or more`,
    fillModel: o.fillModelDoc,
    partial: result.partial === true,
    precision: { money: m.moneyPrec, stock: m.stockPrec },
    assets: { stock: m.stock, money: m.money },
    riskRatios: (result.endT - result.startT) / 1000 >= RISK_RATIO_MIN_SPAN_SEC,
    fillModelParams: { ...(o.fillModelParams ?? DEFAULT_FILL_MODEL) },
    fees: { maker: m.makerFee.toFixed(), taker: m.takerFee.toFixed() },
    lanes,
    band,
    series: {
      t: idx.map((i) => refT[i]!),
      mid: idx.map((i) => refMid[i]!),
      equity,
      pnl,
      inventory,
    },
  };
}
