import { backoffDelay } from '../model/backoff.js';
import { MalformedResponseError, NonceError, notReached, OutcomeUnknownError, RateLimitedError, type VenueError } from './errors.js';
import { wasCertainlyNotSent } from './http-transport.js';
import type { RetryOptions } from './rest-client-options.js';

/**
 * What a call may repeat. `read`: no effect at the venue, or one that repeating cannot double
 * (cancel, kill-switch): retried on network errors, 5xx and 429. `create` (order/new, stop_limit):
 * retried only when the venue surely did not act (429, refused connection, nonce refused); when it
 * may have acted, OutcomeUnknownError. `once` (transfer, codes): like `create`, but an uncertain
 * outcome surfaces as the underlying error, as there is no client id to reconcile by.
 */
export type CallPolicy = 'read' | 'create' | 'once';

/**
 * Concurrent requests of one key may reach the venue out of nonce order; the late one is refused
 * ("Too many requests.", a nonce error) without effect, so it is re-signed with a fresh nonce at once.
 * Its own budget, apart from `retry.limit`, as such races are normal under concurrency.
 */
export const NONCE_RETRIES = 8;

/** Failures of one call so far. */
export interface RetryCount {
  /** Retries counted against `retry.limit`. */
  readonly retries: number;
  /** Of those, after a 429 (their backoff starts at `rateLimitBaseMs`). */
  readonly rateLimited: number;
  /** Immediate re-signs after a nonce refusal (own budget). */
  readonly nonce: number;
}

/** Delay in ms before the next attempt, or undefined when the failure must surface. Pure apart from `random`. */
export function retryDelay(error: VenueError, policy: CallPolicy, count: RetryCount, r: Required<RetryOptions>, random?: () => number): number | undefined {
  if (error instanceof NonceError) return count.nonce < NONCE_RETRIES ? 0 : undefined;
  if (count.retries >= r.limit) return undefined;
  const backoff = (base: number, n: number): number => backoffDelay(n, { baseMs: base, maxMs: r.maxMs, jitter: r.jitter, ...(random ? { random } : {}) });
  // the venue surely did not act on these: any call may repeat them
  if (error instanceof RateLimitedError) return backoff(r.rateLimitBaseMs, count.rateLimited + 1);
  if (wasCertainlyNotSent(error)) return backoff(r.networkBaseMs, count.retries + 1);
  if (policy === 'read' && notReached(error)) {
    return backoff(r.networkBaseMs, count.retries + 1);
  }
  return undefined;
}

/** The count after one more failure of this kind. */
export function countFailure(error: VenueError, count: RetryCount): RetryCount {
  if (error instanceof NonceError) return { ...count, nonce: count.nonce + 1 };
  return { ...count, retries: count.retries + 1, rateLimited: count.rateLimited + (error instanceof RateLimitedError ? 1 : 0) };
}

/**
 * The error a call surfaces. For order creation, a failure after which the venue may have acted
 * (dropped connection, timeout, 5xx, malformed answer) becomes OutcomeUnknownError with the client
 * order id and the original failure as its cause.
 */
export function surfacedError(error: VenueError, policy: CallPolicy, path: string, clientOrderId: string): VenueError {
  const uncertain = !wasCertainlyNotSent(error) && (notReached(error) || error instanceof MalformedResponseError);
  if (policy !== 'create' || !uncertain) return error;
  const how =
    clientOrderId === '' ? 'no client order id was given: reconcile by market, side, price and amount' : `reconcile by client order id "${clientOrderId}"`;
  return new OutcomeUnknownError(`${path}: the order may or may not have been placed (${error.message}); ${how}`, clientOrderId, {
    endpoint: path,
    ...(error.status !== undefined ? { status: error.status } : {}),
    cause: error,
  });
}
