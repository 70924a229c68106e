/** Millisecond wall clock; injectable so tests can stall it or step it back. */
export type MillisClock = () => number;

export interface NonceSourceOptions {
  /** Wall clock in Unix milliseconds. Default `Date.now`. */
  readonly now?: MillisClock;
  /**
   * `nonceWindow` mode: the venue accepts any unique nonce within ±5 s of its clock, which suits
   * concurrent requests. Nonces are still generated strictly increasing (that is also unique), and
   * the flag is what the client puts into each body. Default false.
   */
  readonly nonceWindow?: boolean;
}

/**
 * Nonces for private requests: Unix milliseconds as a string, strictly increasing within the process
 * even when the clock stalls or steps back (the venue rejects a nonce not larger than the last one
 * with "Too many requests."). When the clock stalls, nonces run ahead of it by one per request and
 * fall back to the clock as soon as it catches up.
 */
export class NonceSource {
  readonly nonceWindow: boolean;
  private readonly now: MillisClock;
  private last = 0;

  constructor(options: NonceSourceOptions = {}) {
    this.now = options.now ?? Date.now;
    this.nonceWindow = options.nonceWindow ?? false;
  }

  /** The next nonce, as a decimal string of an integer. */
  next(): string {
    const t = Math.floor(this.now());
    this.last = t > this.last ? t : this.last + 1;
    return String(this.last);
  }

  /** How far the last nonce is ahead of the clock (ms); large values in window mode risk the ±5 s rule. */
  drift(): number {
    return Math.max(0, this.last - Math.floor(this.now()));
  }
}
