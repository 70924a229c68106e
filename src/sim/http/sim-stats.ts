import type { EndpointName } from '../../venue/wire.js';

/**
 * What the server saw, for tests and the daemon's checks: every arrival per endpoint with its time
 * and outcome, the 429 count, rejections by venue code. Arrivals are kept so a test can count them
 * per sliding 10 s window (issue 2's rate-limit check).
 */
export interface Arrival {
  /** Server time, Unix ms. */
  readonly at: number;
  readonly endpoint: EndpointName | 'unknown';
  /** API key for private endpoints (when sent), remote address otherwise. */
  readonly client: string;
  /** HTTP status answered; 0 = connection dropped by fault injection. */
  status: number;
}

const ORDER_ENDPOINTS: ReadonlySet<Arrival['endpoint']> = new Set(['orderNew', 'orderStopLimit', 'orderBulk']);

export class SimStats {
  readonly arrivals: Arrival[] = [];
  tooManyRequests = 0;
  /** Venue error code → count, for 4xx answers that carried a JSON `code`. */
  readonly rejectionsByCode = new Map<number, number>();
  /**
   * The same for the endpoints that place orders (order/new, order/stop_limit, order/bulk): a rule rejection there is
   * one the client's own rules check should have caught. Other endpoints answer codes 30-37 too (the executed-orders
   * history's "not found" for an unknown client order id is a 422 with code 30), which says nothing about the rules.
   */
  readonly orderRejectionsByCode = new Map<number, number>();
  /** Faults applied, `endpoint:kind` → count (kinds: 503, drop, 429, spike, timeout, garbage:<kind>). */
  readonly faults = new Map<string, number>();
  /** HTTP status → count. */
  readonly byStatus = new Map<number, number>();
  /** Keep at most this many arrivals (oldest dropped) so a long-running `bot sim` does not grow without bound. */
  readonly maxArrivals: number;

  constructor(maxArrivals = 200_000) {
    this.maxArrivals = maxArrivals;
  }

  arrive(endpoint: Arrival['endpoint'], client: string, at: number): Arrival {
    const arrival: Arrival = { at, endpoint, client, status: 0 };
    this.arrivals.push(arrival);
    // Trim in batches so the cost stays amortised O(1) per arrival.
    if (this.arrivals.length > this.maxArrivals * 1.25) this.arrivals.splice(0, this.arrivals.length - this.maxArrivals);
    return arrival;
  }

  answered(arrival: Arrival, status: number, venueCode: number | undefined): void {
    arrival.status = status;
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (status === 429) this.tooManyRequests++;
    if (venueCode === undefined || status < 400) return;
    this.rejectionsByCode.set(venueCode, (this.rejectionsByCode.get(venueCode) ?? 0) + 1);
    if (ORDER_ENDPOINTS.has(arrival.endpoint)) this.orderRejectionsByCode.set(venueCode, (this.orderRejectionsByCode.get(venueCode) ?? 0) + 1);
  }

  fault(endpoint: string, kind: string): void {
    const key = `${endpoint}:${kind}`;
    this.faults.set(key, (this.faults.get(key) ?? 0) + 1);
  }

  /** Arrival times of one endpoint (optionally one client), oldest first. */
  arrivalTimes(endpoint: EndpointName, client?: string): number[] {
    return this.arrivals.filter((a) => a.endpoint === endpoint && (client === undefined || a.client === client)).map((a) => a.at);
  }

  /** The largest number of arrivals in any window of `windowMs` (sliding over arrival times). */
  static maxInWindow(times: readonly number[], windowMs: number): number {
    let best = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] as number) - (times[start] as number) >= windowMs) start++;
      best = Math.max(best, end - start + 1);
    }
    return best;
  }
}
