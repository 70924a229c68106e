/**
 * The one backoff policy: how long to wait before retry number `attempt`. Every retrying part uses it (the REST
 * client's retries, polling, reconcile, the start-up look-ups, the webhook) with its own base and cap; it sits in
 * model/ because each of those layers may import it. Pure apart from the injected random source.
 */
export interface BackoffOptions {
  /** Delay of the first retry in ms. Default 1000 (exchange-facts §2: start 1 s). */
  readonly baseMs?: number;
  /** Upper bound of any delay in ms. Default 30000 (exchange-facts §2: cap 30 s). */
  readonly maxMs?: number;
  /** Growth per retry. Default 2 (exchange-facts §2: double); 1 keeps the delay constant. */
  readonly factor?: number;
  /**
   * Fraction of the delay added at random (0 = none, the default): spreads retries of concurrent callers so they
   * do not hit the venue in lockstep (the REST client's 429s, exchange-facts §2).
   */
  readonly jitter?: number;
  /** Random source in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** A server-given Retry-After in ms wins when it is longer than the computed delay. */
  readonly retryAfterMs?: number;
}

/** The exchange's documented policy (exchange-facts §2): start 1 s, double, cap 30 s; jitter is the caller's to add. */
export const DEFAULT_BACKOFF = { baseMs: 1000, maxMs: 30_000, factor: 2 } as const;

/**
 * Delay before retry number `attempt` (1 for the first retry): base × factor per attempt, capped, plus jitter,
 * never above the cap. Like got's calculate-retry-delay, but the cap bounds the jitter too.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  const factor = options.factor ?? DEFAULT_BACKOFF.factor;
  const jitter = options.jitter ?? 0;
  const n = Math.max(1, Math.floor(attempt));
  // factor ** n overflows to Infinity for huge n; min() keeps it finite
  const exp = Math.min(max, base * factor ** (n - 1));
  const withJitter = jitter === 0 ? exp : Math.min(max, exp + exp * jitter * (options.random ?? Math.random)());
  const floor = options.retryAfterMs ?? 0;
  return Math.max(withJitter, Math.min(floor, max));
}
