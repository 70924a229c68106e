import type { Decimal } from './decimal.js';

/** One asset of the trade (spot) balance. */
export interface AssetBalance {
  readonly available: Decimal;
  /** Locked by resting orders. */
  readonly freeze: Decimal;
}

/** Trade balance keyed by ticker. */
export type Balances = Readonly<Record<string, AssetBalance>>;

/** Main balance keyed by ticker (the venue omits zero balances). */
export type MainBalances = Readonly<Record<string, Decimal>>;
