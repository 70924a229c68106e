import type { ExecutedOrderStatus } from '../model/executed-order.js';
import type { Order } from '../model/order.js';
import type { VenueError } from './errors.js';

/** Domain forms of the batch endpoints (wire shapes and sources: wire/order-batch.ts). */

/**
 * What became of one order of a bulk request, in request order:
 * - `placed`: the venue accepted it (its record);
 * - `rejected`: the venue refused it for sure, with the error the single endpoint would have raised
 *   (RequestValidationError for codes 30-37, InnerValidationError otherwise, e.g. 10 not enough balance);
 * - `unknown`: the answer does not prove either (no item for it, or an item naming another client order id):
 *   reconcile it by client order id, never resubmit.
 */
export type BulkPlaceResult =
  | { readonly status: 'placed'; readonly order: Order }
  | { readonly status: 'rejected'; readonly error: VenueError }
  | { readonly status: 'unknown'; readonly reason: string };

export interface BulkPlaceOptions {
  /** Stop at the first order that fails; the orders after it are not placed (their results: `rejected`, not processed). */
  readonly stopOnFail?: boolean;
}

export interface OrderHistoryQuery {
  readonly market?: string;
  /** Single-order lookup (the status and date filters are then ignored). */
  readonly orderId?: number;
  /** Single-order lookup; an unknown one gives an empty list. */
  readonly clientOrderId?: string;
  readonly status?: ExecutedOrderStatus;
  /** Unix seconds. */
  readonly startDate?: number;
  readonly endDate?: number;
  /** 1-500, default 50. */
  readonly limit?: number;
  readonly offset?: number;
}
