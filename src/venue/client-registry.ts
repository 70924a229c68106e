import { NonceSource } from './nonce.js';
import { RateLimiter } from './rate-limiter.js';

/**
 * Process-wide state that every client of the same API key must share: the venue counts nonces and
 * rate limits per key (public limits per client address, i.e. per venue URL here), so two clients
 * with their own nonce source or budget would collide or overrun it together.
 */

const nonceSources = new Map<string, NonceSource>();

/** The nonce source of a key: one per process, so nonces stay strictly increasing across clients. */
export function nonceSourceFor(apiKey: string): NonceSource {
  let source = nonceSources.get(apiKey);
  if (source === undefined) nonceSources.set(apiKey, (source = new NonceSource()));
  return source;
}

interface SharedLimiter {
  readonly limiter: RateLimiter;
  refs: number;
}

const limiters = new Map<string, SharedLimiter>();

/** A lease on the rate limiter of (venue URL, key); release it when the client closes. */
export interface LimiterLease {
  readonly limiter: RateLimiter;
  release(): void;
}

export function leaseRateLimiter(baseUrl: string, apiKey: string | undefined): LimiterLease {
  const id = `${baseUrl}\n${apiKey ?? ''}`;
  let shared = limiters.get(id);
  if (shared === undefined) limiters.set(id, (shared = { limiter: new RateLimiter(), refs: 0 }));
  shared.refs += 1;
  const entry = shared;
  let released = false;
  return {
    limiter: entry.limiter,
    release() {
      if (released) return;
      released = true;
      entry.refs -= 1;
      if (entry.refs === 0) {
        limiters.delete(id);
        entry.limiter.close();
      }
    },
  };
}
