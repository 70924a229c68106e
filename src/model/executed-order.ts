import type { Decimal } from './decimal.js';
import type { Order } from './order.js';

/**
 * A finished order from the account's executed-orders history (`POST /api/v4/trade-account/order/history`).
 * The venue's record has no `left` and no `timestamp`: `left` is amount − dealStock and `timestamp` is its
 * creation time (`ctime`), so it reads like any other Order.
 */
export interface ExecutedOrder extends Order {
  /** When it finished (`ftime`), Unix seconds with a fraction. */
  readonly finishedAt: number;
  /** Fee rates as fractions, as the record gives them (`"0.001"` = 0.1 %; the markets endpoint gives percent). */
  readonly makerFee: Decimal;
  readonly takerFee: Decimal;
  /** The asset the fee was paid in. */
  readonly feeAsset: string;
}

/** Status filter of the history: every finished order, or those whose venue status is the one named. */
export type ExecutedOrderStatus = 'ALL' | 'FILLED' | 'CANCELED' | 'PARTIALLY_FILLED';
