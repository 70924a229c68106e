import type { DeadManMarketStatus } from '../../engine/dead-man.js';
import type { StatusSnapshot } from '../../engine/run-summary.js';
import type { EventWatch } from '../event-watch.js';
import type { VenueHealth } from './venue-health.js';

export interface ReadinessSources {
  readonly status: StatusSnapshot;
  readonly venue: VenueHealth;
  readonly events: EventWatch;
  journalWritable(): boolean;
  deadMan?(): readonly DeadManMarketStatus[];
}

export interface Check {
  readonly ok: boolean;
  readonly why: string;
  readonly [detail: string]: unknown;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly venue: Check; readonly data: Check; readonly journal: Check; readonly strategies: Check; readonly deadMan: Check };
}

/**
 * `/ready`: the venue answers, every traded market has a fresh book, the journal takes records, no strategy stopped by
 * a fault or a loss-limit halt, and the dead-man timer (when on) is being reset. Each check says why in its body.
 */
export function readiness(s: ReadinessSources): Readiness {
  const status = s.status;
  const v = s.venue.state();
  // one failed attempt (a dropped connection the client retries) is not an outage: 2 s without an answer is
  const venue: Check =
    v.reachable || (v.answeredSecAgo !== undefined && v.unreachableForSec < 2)
      ? { ok: true, why: 'the venue answers', ...v }
      : {
          ok: false,
          why:
            v.answeredSecAgo === undefined && v.unreachableForSec === 0
              ? 'no answer from the venue yet'
              : `the venue has not answered for ${v.unreachableForSec.toFixed(1)} s (${v.lastError ?? 'no answer'})`,
          ...v,
        };
  const noBook = status.markets.filter((m) => m.mid === undefined).map((m) => m.market);
  const stale = [...s.events.staleMarkets];
  const data: Check =
    stale.length === 0 && noBook.length === 0
      ? { ok: true, why: 'every market has a fresh book' }
      : {
          ok: false,
          why: [stale.length > 0 ? `stale: ${stale.join(', ')}` : '', noBook.length > 0 ? `no book yet: ${noBook.join(', ')}` : ''].filter(Boolean).join('; '),
          stale,
          noBook,
        };
  const journal: Check = s.journalWritable()
    ? { ok: true, why: 'the journal takes records' }
    : { ok: false, why: 'the journal is closed or a background fsync failed' };
  const figures = status.markets.flatMap((m) => m.strategies);
  const halted = figures.filter((f) => f.halted).map((f) => f.id);
  const failed = [...s.events.failedStrategies.keys()];
  const paused = figures.filter((f) => f.paused).map((f) => f.id);
  const strategies: Check =
    halted.length === 0 && failed.length === 0
      ? { ok: true, why: paused.length > 0 ? `running (paused by an operator: ${paused.join(', ')})` : 'every strategy runs', paused }
      : {
          ok: false,
          why: [halted.length > 0 ? `halted by the loss limit: ${halted.join(', ')}` : '', failed.length > 0 ? `failed: ${failed.join(', ')}` : '']
            .filter(Boolean)
            .join('; '),
          halted,
          failed,
          paused,
        };
  const timers = s.deadMan?.();
  const failing = (timers ?? []).filter((t) => t.failures >= 2).map((t) => t.market);
  const deadMan: Check =
    timers === undefined
      ? { ok: true, why: 'the dead-man timer is off (deadMan: in the config turns it on)' }
      : failing.length === 0
        ? { ok: true, why: 'armed and being reset', markets: timers }
        : { ok: false, why: `resets failing for ${failing.join(', ')}`, markets: timers };
  const checks = { venue, data, journal, strategies, deadMan };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
