import type { AuthFields, WireDecimal } from './common.js';

/** An order record's `type` on the wire (exchange-facts §5). */
export type WireOrderType = 'limit' | 'stop limit';
/** The wire's `type` of each of the project's order kinds (model/order.ts OrderKind), and back. */
export const WIRE_ORDER_TYPE = { limit: 'limit', 'stop-limit': 'stop limit' } as const satisfies Record<string, WireOrderType>;
export const ORDER_KIND_OF = { limit: 'limit', 'stop limit': 'stop-limit' } as const satisfies Record<WireOrderType, keyof typeof WIRE_ORDER_TYPE>;

export type WireStp = 'no' | 'cancel_both' | 'cancel_new' | 'cancel_old' | 'cb' | 'cn' | 'co';

export interface NewOrderBody extends AuthFields {
  market: string;
  side: 'buy' | 'sell';
  amount: WireDecimal | number;
  price: WireDecimal | number;
  /** Contract spelling. */
  client_order_id?: string;
  /** Live-exchange spelling. */
  clientOrderId?: string;
  postOnly?: boolean;
  ioc?: boolean;
  stp?: WireStp;
  rpi?: boolean;
}

export interface StopLimitBody extends AuthFields {
  market: string;
  side: 'buy' | 'sell';
  amount: WireDecimal | number;
  price: WireDecimal | number;
  /** snake_case in both dialects. */
  activation_price: WireDecimal | number;
  client_order_id?: string;
  clientOrderId?: string;
  stp?: WireStp;
}

/** Order record, contract dialect (api-v4.md). */
export interface ContractOrderRecord {
  order_id: number;
  client_order_id: string;
  market: string;
  side: 'buy' | 'sell';
  type: string;
  timestamp: number;
  deal_money: WireDecimal;
  deal_stock: WireDecimal;
  amount: WireDecimal;
  left: WireDecimal;
  deal_fee: WireDecimal;
  price: WireDecimal;
  activation_price?: WireDecimal;
  postOnly: boolean;
  ioc: boolean;
  status: string;
  stp: string;
  positionSide?: string;
  rpi: boolean;
}

/** Order record, live-exchange dialect (camelCase ids and deal fields; activation_price stays snake_case). */
export interface ExchangeOrderRecord {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: 'buy' | 'sell';
  type: string;
  timestamp: number;
  dealMoney: WireDecimal;
  dealStock: WireDecimal;
  amount: WireDecimal;
  left: WireDecimal;
  dealFee: WireDecimal;
  price: WireDecimal;
  activation_price?: WireDecimal;
  postOnly: boolean;
  ioc: boolean;
  status: string;
  stp: string;
  positionSide?: string;
  rpi: boolean;
}

export type WireOrderRecord = ContractOrderRecord | ExchangeOrderRecord;

/** Exactly one of orderId / clientOrderId (both dialects use camelCase here). */
export interface CancelOrderBody extends AuthFields {
  market: string;
  orderId?: number;
  clientOrderId?: string;
}

export interface OrdersBody extends AuthFields {
  market?: string;
  orderId?: number;
  clientOrderId?: string;
  /** <= 100, default 50. */
  limit?: number;
  offset?: number;
}

export interface ExecutedHistoryBody extends AuthFields {
  market?: string;
  clientOrderId?: string;
  /** <= 100. */
  limit?: number;
  offset?: number;
}

/** One deal of the account. `role` 1 = maker, 2 = taker. */
export interface WireDeal {
  id: number;
  time: number;
  side: 'buy' | 'sell';
  role: 1 | 2;
  amount: WireDecimal;
  price: WireDecimal;
  deal: WireDecimal;
  fee: WireDecimal;
  orderId: number;
  clientOrderId: string;
  /** Present on the unfiltered form's entries is not guaranteed; the filtered form is an array. */
  market?: string;
}

/** With `market`: an array; without: an object keyed by market. */
export type ExecutedHistoryResponse = WireDeal[] | Record<string, WireDeal[]>;
