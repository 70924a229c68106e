/**
 * A finished lane as plain data for the trip from a worker thread (structured clone keeps no class): Decimals become
 * `{ $dec: "1.23" }` (exact) and come back as Decimals, Maps become entry lists.
 */
import { D, Decimal } from '../../src/model/decimal.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import { EquityCurve, type EquityColumns } from './equity-curve.js';
import type { Lane } from './lane.js';
import type { LaneMarks, LaneView } from './lane-view.js';
import { laneDigest } from './replay-fingerprint.js';
import type { FillRecord } from './virtual-exchange.js';

export interface LaneWire {
  readonly assumption: FillAssumption;
  /** Present when the caller asked for it (the fingerprint): hashing a lane-day costs ~0.2 s. */
  readonly digest?: string;
  /** The equity curve in columns: four transferable arrays instead of a structured clone of one object per snapshot. */
  readonly equity: EquityColumns;
  readonly intents: number;
  readonly rejections: [string, number][];
  readonly errors: readonly string[];
  readonly fills: unknown;
  readonly placed: number;
  readonly canceled: number;
  readonly orderedBase: unknown;
  readonly exchangeRejections: [string, number][];
  readonly totals: Record<string, unknown>;
  readonly calls: [string, number][];
  readonly summary: unknown;
  readonly marks: unknown;
}

/** What postMessage moves instead of copying: the equity columns' buffers. */
export function wireTransfers(w: LaneWire): ArrayBuffer[] {
  return [w.equity.t.buffer, w.equity.mid.buffer, w.equity.equity.buffer, w.equity.inventory.buffer] as ArrayBuffer[];
}

export function encodeDecimals(v: unknown): unknown {
  if (v instanceof Decimal) return { $dec: v.toFixed() };
  if (Array.isArray(v)) return v.map(encodeDecimals);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = encodeDecimals(x);
    return out;
  }
  return v;
}

export function decodeDecimals(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeDecimals);
  if (v !== null && typeof v === 'object') {
    const dec = (v as { $dec?: unknown }).$dec;
    if (typeof dec === 'string' && Object.keys(v).length === 1) return D(dec);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = decodeDecimals(x);
    return out;
  }
  return v;
}

/** In the worker: the lane as plain data, with its digest (replay-fingerprint.ts) when `digest` is asked for. */
export function laneToWire(lane: Lane, assets: readonly string[], digest: boolean): LaneWire {
  return {
    assumption: lane.assumption,
    ...(digest ? { digest: laneDigest(lane) } : {}),
    equity: lane.equity.columns(),
    intents: lane.intents.length,
    rejections: [...lane.rejections],
    errors: lane.errors,
    fills: encodeDecimals(lane.exchange.fills),
    placed: lane.exchange.placed,
    canceled: lane.exchange.canceled,
    orderedBase: encodeDecimals(lane.exchange.orderedBase),
    exchangeRejections: [...lane.exchange.rejections],
    totals: Object.fromEntries(assets.map((a) => [a, encodeDecimals(lane.exchange.total(a))])),
    calls: [...lane.venue.calls],
    summary: encodeDecimals(lane.summary),
    marks: encodeDecimals(lane.marks),
  };
}

/** In the main thread: the lane as the report and the fingerprint read it. */
export function laneFromWire(w: LaneWire): LaneView & { readonly digest?: string } {
  const totals = decodeDecimals(w.totals) as Record<string, Decimal>;
  return {
    assumption: w.assumption,
    ...(w.digest !== undefined ? { digest: w.digest } : {}),
    equity: new EquityCurve(w.equity),
    intents: { length: w.intents },
    rejections: new Map(w.rejections),
    errors: w.errors,
    exchange: {
      fills: decodeDecimals(w.fills) as FillRecord[],
      placed: w.placed,
      canceled: w.canceled,
      orderedBase: decodeDecimals(w.orderedBase) as Decimal,
      rejections: new Map(w.exchangeRejections),
      total: (asset) => totals[asset] ?? D(0),
    },
    venue: { calls: new Map(w.calls) },
    summary: decodeDecimals(w.summary) as RunSummary | undefined,
    marks: decodeDecimals(w.marks) as LaneMarks,
  };
}
