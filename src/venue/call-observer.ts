import type { EndpointName } from './wire.js';

/** One attempt of a venue call, as the client saw it (ops metrics and venue health read these). */
export interface VenueCallRecord {
  readonly endpoint: EndpointName;
  /** The market the call was about, when it names one (order book, orders, deals, cancels). */
  readonly market?: string;
  /** From sending to the parsed answer (or the failure); the rate limiter's waiting time is not in it. */
  readonly ms: number;
  /** The HTTP status, when an answer came. */
  readonly status?: number;
  /** The error's stable code when the attempt failed (e.g. ERR_RATE_LIMITED, ERR_NETWORK), else undefined. */
  readonly error?: string;
}

/** Told about every attempt of a RestClient; must not throw and must be cheap (it runs on the order path). */
export interface VenueCallObserver {
  onCall(call: VenueCallRecord): void;
}
