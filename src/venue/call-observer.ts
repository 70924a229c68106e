import { notReached } from './errors.js';
import type { RawResponse } from './http-transport.js';
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
  /** The error's stable code when the attempt failed (e.g. ERR_VENUE_RATE_LIMITED), else undefined. */
  readonly error?: string;
  /** The failure says the venue was not reached or could not serve (errors.ts `notReached`). */
  readonly notReached?: true;
}

/** Told about every attempt of a RestClient; must not throw and must be cheap (it runs on the order path). */
export interface VenueCallObserver {
  onCall(call: VenueCallRecord): void;
}

/**
 * One attempt (send, then read) with the observer told its outcome: the latency from sending to the parsed answer,
 * the HTTP status when one came, the error's code when it failed. What the attempt returns or throws is unchanged.
 */
export function observeAttempt<T>(
  observer: VenueCallObserver,
  call: { readonly endpoint: EndpointName; readonly market: string | undefined },
  send: () => Promise<RawResponse>,
  read: (res: RawResponse) => T,
): Promise<T> {
  const started = performance.now();
  const tell = (status: number | undefined, error: unknown): void =>
    observer.onCall({
      endpoint: call.endpoint,
      ...(call.market !== undefined ? { market: call.market } : {}),
      ms: performance.now() - started,
      ...(status !== undefined ? { status } : {}),
      ...(error !== undefined
        ? { error: (error as { code?: string }).code ?? 'ERR_UNKNOWN', ...(notReached(error) ? { notReached: true as const } : {}) }
        : {}),
    });
  return send().then(
    (res) => {
      try {
        const value = read(res);
        tell(res.status, undefined);
        return value;
      } catch (error) {
        tell(res.status, error);
        throw error;
      }
    },
    (error: unknown) => {
      tell((error as { status?: number }).status, error);
      throw error;
    },
  );
}
