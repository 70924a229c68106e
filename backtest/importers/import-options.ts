import type { WireMarket } from '../../src/venue/wire.js';
import type { ImportProgress } from './text-lines.js';

/** What every importer needs to write a recording: the fixed grid, the depth, the output and the market's rules. */
export interface RecordingImportOptions {
  /** The grid's interval: one snapshot every intervalMs of capture time. */
  readonly intervalMs: number;
  /** Levels a side per snapshot (1-100; the contract's order book allows at most 100). */
  readonly limit: number;
  readonly out: string;
  /** The rules record written at the head (captures have none). */
  readonly market: WireMarket;
  /** Input bytes read of the total, for a progress bar. */
  readonly onProgress?: ImportProgress;
}
