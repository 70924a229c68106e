/**
 * Per-key nonce bookkeeping (exchange-facts §1). Strict mode: each nonce must be larger than the
 * last accepted one for the key. Window mode (`nonceWindow: true`): the nonce is a millisecond
 * timestamp within ±5 s of server time and must not have been seen before, so a client may send
 * concurrently. Nonces are compared as BigInt so long digit strings cannot lose precision.
 */
export type NonceVerdict = 'ok' | 'missing' | 'not-increasing' | 'out-of-window';

export const NONCE_WINDOW_MS = 5_000;

interface KeyState {
  last: bigint;
  /** Nonces seen recently, for window-mode uniqueness; pruned to those still inside the window. */
  readonly recent: Map<bigint, number>;
}

export class NonceCheck {
  readonly #keys = new Map<string, KeyState>();

  /** Checks and, when accepted, records the nonce. `nowMs` is server time. */
  accept(apiKey: string, nonce: unknown, windowMode: boolean, nowMs: number): NonceVerdict {
    const value = parseNonce(nonce);
    if (value === undefined) return 'missing';
    let state = this.#keys.get(apiKey);
    if (state === undefined) {
      state = { last: -1n, recent: new Map() };
      this.#keys.set(apiKey, state);
    }
    if (windowMode) {
      const offset = Number(value - BigInt(Math.round(nowMs)));
      if (Math.abs(offset) > NONCE_WINDOW_MS) return 'out-of-window';
      if (state.recent.has(value)) return 'not-increasing';
    } else if (value <= state.last) {
      return 'not-increasing';
    }
    this.#prune(state, nowMs);
    state.recent.set(value, nowMs);
    if (value > state.last) state.last = value;
    return 'ok';
  }

  #prune(state: KeyState, nowMs: number): void {
    // A window-mode nonce more than 5 s from now is refused anyway, so older memories are not needed.
    // The map is in insertion (= time) order, so pruning stops at the first recent entry: amortised O(1).
    for (const [nonce, seenAt] of state.recent) {
      if (nowMs - seenAt <= 2 * NONCE_WINDOW_MS) break;
      state.recent.delete(nonce);
    }
  }
}

/** A nonce is a string (or number) of decimal digits; anything else counts as not provided. */
function parseNonce(nonce: unknown): bigint | undefined {
  if (typeof nonce === 'number' && Number.isSafeInteger(nonce) && nonce >= 0) return BigInt(nonce);
  if (typeof nonce === 'string' && /^\d{1,40}$/.test(nonce)) return BigInt(nonce);
  return undefined;
}
