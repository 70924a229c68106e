/**
 * What a finished lane leaves for the report and the fingerprint, as one interface that a Lane (run in this thread)
 * and a lane run on a worker thread (sent back as plain data, see lane-wire.ts) both satisfy.
 */
import type { Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import type { EquityCurve } from './equity-curve.js';
import type { FillRecord } from './virtual-exchange.js';

/** The mids a lane's PnL is marked at. */
export interface LaneMarks {
  /** The mid the engine marked its ledgers' figures (`summary`) at when it stopped: its last sane book's. */
  readonly engineMid: Decimal | undefined;
  /** The exact mid of the last sampled snapshot (the equity curve's last point). */
  readonly lastMid: Decimal | undefined;
}

export interface LaneView {
  readonly assumption: FillAssumption;
  readonly equity: EquityCurve;
  readonly intents: { readonly length: number };
  readonly rejections: ReadonlyMap<string, number>;
  readonly errors: readonly string[];
  readonly exchange: {
    readonly fills: readonly FillRecord[];
    readonly placed: number;
    readonly canceled: number;
    readonly orderedBase: Decimal;
    readonly rejections: ReadonlyMap<string, number>;
    total(asset: string): Decimal;
  };
  readonly venue: { readonly calls: ReadonlyMap<string, number> };
  readonly summary: RunSummary | undefined;
  readonly marks: LaneMarks;
}

/** A replay's outcome as the report reads it: a BacktestResult, or the lanes of a parallel run. */
export interface ReplayOutcome {
  readonly market: Market;
  readonly source: string | undefined;
  readonly startT: number;
  readonly endT: number;
  readonly snapshots: number;
  readonly trades: number;
  readonly sampleMs: number;
  readonly lanes: readonly LaneView[];
  /** Stopped before the end of the data (Ctrl-C): the figures cover startT..endT only. */
  readonly partial?: boolean;
}
