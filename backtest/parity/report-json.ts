/**
 * `parity.json`: a recorded session beside its replay, as plain JSON (Decimals as strings). Self-describing: the
 * inputs, the fill model and fee rates used, the matching window, per lane the fill comparison, the fill-time error
 * and the PnL, the band, the execution quality of every live fill, every live order with what each lane did, the
 * fit when asked, and the one summary line `bot parity` prints.
 */
import type { Decimal } from '../../src/model/decimal.js';
import type { FeeRates, FillModelParams } from '../../src/fill-model/fill-model-params.js';
import type { LaneParity, OrderRow } from './compare-lane.js';
import type { FitResult } from './fit.js';
import type { FillQuality, QualitySummary } from './markout.js';
import type { PnlBand, SessionPnl } from './session-pnl.js';
import type { Session } from './session.js';

export interface ParitySummary {
  readonly liveFills: number;
  /** Matched live fills per lane. */
  readonly matched: Readonly<Record<string, number>>;
  /** Live fills that no lane made (missed by every lane: outside the band). */
  readonly missed: number;
  /** Fills of the pessimistic lane that live did not make (outside the band: the lower bound filled more). */
  readonly extra: number;
  /** Live net PnL at the session's last mid. */
  readonly livePnl: string;
  readonly band: readonly [string, string] | null;
  readonly inside: boolean | null;
  readonly line: string;
}

export interface ParityReport {
  readonly generatedBy: 'bot parity';
  readonly journal: string;
  readonly config: string;
  readonly dataFiles: readonly string[];
  readonly market: string;
  readonly start: string;
  readonly end: string;
  readonly durationSec: number;
  /** Daemon runs in the journal; the session is the last one. */
  readonly runs: number;
  readonly strategies: readonly string[];
  /** The matching window: one snapshot of the recording (its median interval), ms. */
  readonly windowMs: number;
  readonly latency: { readonly requestMs: number; readonly responseMs: number };
  readonly fillModel: FillModelParams;
  readonly fees: { readonly maker: string; readonly taker: string };
  readonly fillModelLine: string;
  /** Parts of the session's config the replay does not reproduce. */
  readonly notReplayed: readonly string[];
  /** The mid every PnL is marked at (the session's last), or null. */
  readonly mark: string | null;
  readonly live: { readonly orders: number; readonly fills: number; readonly amount: string; readonly pnl: SessionPnl };
  readonly lanes: readonly LaneParity[];
  readonly band: PnlBand;
  readonly quality: { readonly summary: QualitySummary; readonly fills: readonly FillQuality[] };
  readonly orders: readonly OrderRow[];
  readonly fit: FitResult | null;
  /** Down-sampled recorded mid (charts); fills are in `quality.fills` and the lanes' are in `laneFills`. */
  readonly series: { readonly t: readonly number[]; readonly mid: readonly number[] };
  /** Each lane's fills (time, side, price, amount), for the chart. */
  readonly laneFills: Readonly<Record<string, readonly { readonly t: number; readonly side: string; readonly price: string; readonly amount: string }[]>>;
  readonly summary: ParitySummary;
}

/** `parity: live fills N; matched pess M1, opt M2; missed X; extra Y; live pnl P; band [A, B]; inside yes|no`. */
export function summaryLine(s: Omit<ParitySummary, 'line'>): string {
  const m = (lane: string): string => String(s.matched[lane] ?? '–');
  const band = s.band === null ? '–' : `[${s.band[0]}, ${s.band[1]}]`;
  const inside = s.inside === null ? '–' : s.inside ? 'yes' : 'no';
  return `parity: live fills ${s.liveFills}; matched pess ${m('pessimistic')}, opt ${m('optimistic')}; missed ${s.missed}; extra ${s.extra}; live pnl ${s.livePnl}; band ${band}; inside ${inside}`;
}

/** At most `max` evenly spaced points of the mids (first and last kept). */
export function midSeries(times: readonly number[], mids: readonly Decimal[], max = 2000): { t: number[]; mid: number[] } {
  const n = times.length;
  const idx = n <= max ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: max }, (_, k) => Math.round((k * (n - 1)) / (max - 1)));
  return { t: idx.map((i) => times[i]!), mid: idx.map((i) => mids[i]!.toNumber()) };
}

export function feesJson(f: FeeRates): { maker: string; taker: string } {
  return { maker: f.maker.toFixed(), taker: f.taker.toFixed() };
}

export function sessionSpan(s: Session): { start: string; end: string; durationSec: number } {
  return { start: new Date(s.startT).toISOString(), end: new Date(s.endT).toISOString(), durationSec: (s.endT - s.startT) / 1000 };
}
