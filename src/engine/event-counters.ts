import type { EngineEvent } from './events.js';

/** The engine's events counted for status and the run summary: rejections by reason, places, cancels, unknowns. */
export class EventCounters {
  readonly rejections: Record<string, number> = {};
  readonly counters = { submitted: 0, canceled: 0, unknown: 0 };

  count(e: EngineEvent): void {
    if (e.type === 'rejected') this.rejections[e.reason] = (this.rejections[e.reason] ?? 0) + 1;
    else if (e.type === 'submitted' && e.kind === 'place') this.counters.submitted += 1;
    else if (e.type === 'canceled') this.counters.canceled += 1;
    else if (e.type === 'unknown') this.counters.unknown += 1;
  }
}
