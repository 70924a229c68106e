/** Exponential backoff with jitter; pure apart from the injected random source. */
export interface BackoffOptions {
  /** Delay of the first retry in ms. Default 1000 (exchange-facts §2: start 1 s). */
  readonly baseMs?: number;
  /** Upper bound of any delay in ms. Default 30000. */
  readonly maxMs?: number;
  /**
   * Fraction of the delay added at random (0 = none): spreads retries of concurrent callers so they
   * do not hit the venue in lockstep. Default 0.2.
   */
  readonly jitter?: number;
  /** Random source in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** A server-given Retry-After in ms wins when it is longer than the computed delay. */
  readonly retryAfterMs?: number;
}

/**
 * Delay before retry number `attempt` (1 for the first retry): base doubling per attempt, capped,
 * plus jitter, never above the cap. Like got's calculate-retry-delay, but the cap bounds the jitter too.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 1000;
  const max = options.maxMs ?? 30_000;
  const jitter = options.jitter ?? 0.2;
  const random = options.random ?? Math.random;
  const n = Math.max(1, Math.floor(attempt));
  // 2 ** n overflows to Infinity for huge n; min() keeps it finite
  const exp = Math.min(max, base * 2 ** (n - 1));
  const withJitter = Math.min(max, exp + exp * jitter * random());
  const floor = options.retryAfterMs ?? 0;
  return Math.max(withJitter, Math.min(floor, max));
}
