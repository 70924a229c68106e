import { backoffDelay } from '../model/backoff.js';
import { AuthError } from '../venue/errors.js';

/**
 * Start-up look-ups the daemon cannot trade without (the account's open orders, to adopt its strategies' orders
 * before they quote again) are repeated on a failure instead of ending the start: one garbage answer or 5xx from
 * the venue at that moment used to stop the daemon with exit 3 (a chaos-harness finding). Reads only: repeating
 * them cannot act twice. Timers go through the caller's `delay` (the engine's scheduler), never setTimeout.
 * An authentication failure (401/403) is not retried: the key will not become right by waiting, and 16 s of
 * repeats before the same error only hid which setting to fix.
 */
export interface StartupRetryOptions {
  /** Attempts in all. Default 8 (about 20 s with the default delays). */
  readonly attempts?: number;
  /** First pause, ms, doubling per attempt up to `maxMs`. Defaults 250 and 5000. */
  readonly baseMs?: number;
  readonly maxMs?: number;
  readonly delay: (ms: number) => Promise<void>;
  /** Told about each failure that is retried. */
  readonly onRetry?: (error: unknown, attempt: number, retryInMs: number) => void;
}

export async function withStartupRetries<T>(fn: () => Promise<T>, o: StartupRetryOptions): Promise<T> {
  const attempts = o.attempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts || error instanceof AuthError) throw error;
      const pause = backoffDelay(attempt, { baseMs: o.baseMs ?? 250, maxMs: o.maxMs ?? 5000 });
      o.onRetry?.(error, attempt, pause);
      await o.delay(pause);
    }
  }
}
