import type { VenueCallObserver, VenueCallRecord } from '../../venue/call-observer.js';
import type { EndpointName } from '../../venue/wire.js';

export interface StreamAge {
  readonly endpoint: EndpointName;
  readonly market: string;
  /** Seconds since the last successful call of this endpoint for this market. */
  readonly ageSec: number;
}

/**
 * Whether the venue answers, from the client's own calls (no extra request): the last answer of any kind, the time
 * since the venue stopped answering, and the age of the last success per endpoint and market (poll staleness).
 * Wall-clock (`performance.now`): it belongs to a live daemon's operations surface, not to the engine.
 */
export class VenueHealth implements VenueCallObserver {
  private lastAnswerAt: number | undefined;
  private unreachedSince: number | undefined;
  private lastError: string | undefined;
  private readonly lastOk = new Map<string, { endpoint: EndpointName; market: string; at: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  onCall(c: VenueCallRecord): void {
    const at = this.now();
    // not reached (no connection, a timeout, a 503), as opposed to an answer that refused
    if (c.notReached === true) {
      this.unreachedSince ??= at;
      this.lastError = c.error;
      return;
    }
    this.lastAnswerAt = at;
    this.unreachedSince = undefined;
    if (c.error === undefined) {
      const market = c.market ?? '';
      this.lastOk.set(`${c.endpoint}|${market}`, { endpoint: c.endpoint, market, at });
    }
  }

  /** Seconds the venue has not been reached (0 while it answers). */
  unreachableForSec(): number {
    return this.unreachedSince === undefined ? 0 : (this.now() - this.unreachedSince) / 1000;
  }

  state(): { reachable: boolean; answeredSecAgo?: number; unreachableForSec: number; lastError?: string } {
    const now = this.now();
    return {
      reachable: this.unreachedSince === undefined && this.lastAnswerAt !== undefined,
      ...(this.lastAnswerAt !== undefined ? { answeredSecAgo: (now - this.lastAnswerAt) / 1000 } : {}),
      unreachableForSec: this.unreachableForSec(),
      ...(this.unreachedSince !== undefined && this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  ages(): StreamAge[] {
    const now = this.now();
    return [...this.lastOk.values()].map((v) => ({ endpoint: v.endpoint, market: v.market, ageSec: (now - v.at) / 1000 }));
  }
}
