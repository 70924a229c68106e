import type { OrderBookResponse } from '../../venue/wire.js';

/**
 * The public order book is cached for 100 ms (api-v4.md), keyed by market, depth and level, so
 * clients polling faster than that see the same snapshot the venue would give them.
 */
export const BOOK_CACHE_MS = 100;

export class BookCache {
  readonly #entries = new Map<string, { at: number; value: OrderBookResponse }>();
  readonly #ttlMs: number;

  constructor(ttlMs = BOOK_CACHE_MS) {
    this.#ttlMs = ttlMs;
  }

  get(key: string, nowMs: number, build: () => OrderBookResponse): OrderBookResponse {
    const hit = this.#entries.get(key);
    if (hit !== undefined && nowMs - hit.at < this.#ttlMs && nowMs >= hit.at) return hit.value;
    const value = build();
    this.#entries.set(key, { at: nowMs, value });
    return value;
  }
}
