import type { AuthFields, WireDecimal } from './common.js';
import type { NewOrderBody, WireOrderRecord } from './orders.js';
import type { PrivateErrorBody } from './errors.js';

/**
 * Bulk limit orders, cancel-all and the executed-orders history: the exchange's public docs
 * (docs.whitebit.com, spot trading: "Bulk limit order", "Cancel all orders", "Query executed orders");
 * api-v4.md does not list them. What the client and the sim rely on is written here.
 */

/** Orders per bulk request: 1 to 20 ("Bulk Limit Order: create multiple limit orders (1-20 orders)"). */
export const BULK_MAX_ORDERS = 20;

/** One item of `orders`: the body of order/new without `request`/`nonce`, validated with the same rules. */
export type BulkOrderItem = Omit<NewOrderBody, keyof AuthFields>;

/**
 * `POST /api/v4/order/bulk`. `stopOnFail` (default false): when true, processing stops at the first order
 * that fails and only the orders before it are placed; the answer then holds no item for the orders after it.
 */
export interface BulkOrderBody extends AuthFields {
  orders: BulkOrderItem[];
  stopOnFail?: boolean;
}

/**
 * HTTP 200 with one item per processed order, in request order (response[i] is orders[i]): `result` is the
 * order record (either dialect) when placed, `error` the body the single endpoint would have answered
 * (`{code, message, errors}`: 30-37 validation, 10 inner, e.g. not enough balance) when not; the other is null.
 * A request-level problem (no orders, more than 20, not an array) is an ordinary 422 error body instead.
 */
export interface BulkOrderItemResult {
  result: WireOrderRecord | null;
  error: PrivateErrorBody | null;
}
export type BulkOrderResponse = BulkOrderItemResult[];

/**
 * `POST /api/v4/order/cancel/all`: cancels the account's open orders of `market` (every market when absent),
 * stop orders included. `type` narrows by kind (`spot`, `margin`, `futures`); absent = all kinds. The docs
 * show no success body; the sim answers `[]`. The client returns nothing: the open-orders and deals
 * endpoints tell what was cancelled and what had filled.
 */
export interface CancelAllBody extends AuthFields {
  market?: string;
  type?: Array<'spot' | 'margin' | 'futures'>;
}

/**
 * `POST /api/v4/trade-account/order/history`: the account's executed (fully or partly traded, then finished)
 * orders. Filters: `market`, `orderId` / `clientOrderId` (single-order lookup; an unknown clientOrderId
 * answers 422 "OrderHistory was not found."), `status` (ALL, FILLED, CANCELED, PARTIALLY_FILLED), `startDate`
 * / `endDate` (Unix seconds), `limit` 1-500 (default 50), `offset` (default 0).
 */
export interface OrderHistoryBody extends AuthFields {
  market?: string;
  orderId?: number;
  clientOrderId?: string;
  status?: 'ALL' | 'FILLED' | 'CANCELED' | 'PARTIALLY_FILLED';
  startDate?: number;
  endDate?: number;
  limit?: number;
  offset?: number;
}

/** One executed order, live spelling (camelCase `clientOrderId`, `deal*`). Fees are fractions (`"0.001"` = 0.1 %). */
export interface ExchangeExecutedOrder {
  id: number;
  clientOrderId: string;
  market?: string;
  side: 'buy' | 'sell';
  type: string;
  amount: WireDecimal;
  price: WireDecimal;
  /** Created / finished, Unix seconds with a microsecond fraction. */
  ctime: number;
  ftime: number;
  makerFee: WireDecimal;
  takerFee: WireDecimal;
  dealFee: WireDecimal;
  dealStock: WireDecimal;
  dealMoney: WireDecimal;
  postOnly: boolean;
  ioc: boolean;
  status: string;
  feeAsset: string;
  stp: string;
  rpi: boolean;
}

/** The same record in the contract's snake_case spelling of ids and deal fields (as its other order records). */
export type ContractExecutedOrder = Omit<ExchangeExecutedOrder, 'clientOrderId' | 'dealFee' | 'dealStock' | 'dealMoney'> & {
  client_order_id: string;
  deal_fee: WireDecimal;
  deal_stock: WireDecimal;
  deal_money: WireDecimal;
};

/** Grouped by market: `{ "BTC_USDT": [ ...newest first ] }`. */
export type OrderHistoryResponse = Record<string, Array<ExchangeExecutedOrder | ContractExecutedOrder>>;
