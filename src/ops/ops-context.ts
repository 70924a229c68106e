import type { DeadManMarketStatus } from '../engine/dead-man.js';
import type { Runtime } from '../engine/runtime.js';
import type { BucketStats } from '../venue/rate-limiter.js';
import type { StateHistory } from './dashboard/state-history.js';
import type { EventWatch } from './event-watch.js';
import type { VenueHealth } from './health/venue-health.js';
import type { DaemonMetrics } from './metrics/daemon-metrics.js';

/** What the operations routes read and act on; the composition root (src/app) builds one per daemon. */
export interface OpsContext {
  readonly runtime: Pick<Runtime, 'status' | 'control'>;
  readonly metrics: DaemonMetrics;
  readonly venue: VenueHealth;
  readonly events: EventWatch;
  readonly history: StateHistory;
  limiterStats(): readonly BucketStats[];
  journalWritable(): boolean;
  readonly deadMan?: (() => readonly DeadManMarketStatus[]) | undefined;
  /** Shown on the dashboard, e.g. `embedded sim http://127.0.0.1:PORT` (never a key). */
  readonly venueLabel: string;
  /** A token is configured, so controls can be used. */
  readonly controlsOn: boolean;
  /** Ends the daemon as a signal would (after the control was journalled). */
  requestStop(reason: string): void;
}
