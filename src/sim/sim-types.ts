import type { Decimal } from '../model/decimal.js';
import type { LimitOrderRequest, Order, Side, StopLimitOrderRequest, StpMode } from '../model/order.js';
import type { KillSwitchOrderType } from '../venue/wire.js';

/** An account of the simulated exchange. `id` is stable for the life of the exchange (the config name). */
export interface SimAccount {
  readonly id: string;
  readonly name: string;
  readonly apiKey: string;
  /** Never log it. */
  readonly apiSecret: string;
  /** Business partner: may read investments. */
  readonly partner: boolean;
  /** Internal (synthetic flow) accounts are not handed out to clients. */
  readonly internal: boolean;
}

/** `stp` as the venue accepts it: long or short form. */
export type StpInput = StpMode | 'cb' | 'cn' | 'co';

/**
 * A limit OrderRequest (model/order.ts) as the exchange takes it, already validated by src/rules (steps, minimums,
 * flags); the exchange still checks balance. The venue's short stp forms are accepted too.
 */
export type LimitOrderInput = Omit<LimitOrderRequest, 'kind' | 'stp'> & { readonly stp?: StpInput | undefined };

/** A stop-limit OrderRequest as the exchange takes it (see LimitOrderInput). */
export type StopLimitInput = Omit<StopLimitOrderRequest, 'kind' | 'stp'> & { readonly stp?: StpInput | undefined };

/**
 * Why an order was not accepted (the HTTP layer maps these to statuses):
 * - `balance`: the trade balance cannot cover the lock (limit: 400 code 10; stop-limit: 422 code 32);
 * - `post-only`: a postOnly or rpi order would have taken liquidity;
 * - `market`: unknown market or trading disabled;
 * - `client-order-id`: the id was already used by the account;
 * - `account`: unknown account id.
 */
export type PlaceRejectReason = 'balance' | 'post-only' | 'market' | 'client-order-id' | 'account';

export type PlaceResult = { readonly ok: true; readonly order: Order } | { readonly ok: false; readonly reason: PlaceRejectReason; readonly message: string };

export interface CancelBy {
  readonly orderId?: number;
  readonly clientOrderId?: string;
}

export interface OpenOrdersFilter {
  readonly market?: string | undefined;
  readonly orderId?: number | undefined;
  readonly clientOrderId?: string | undefined;
  /** Default 50. */
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface DealsFilter {
  readonly market?: string | undefined;
  readonly clientOrderId?: string | undefined;
  /** Default 100. */
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** State of a kill switch (times in Unix seconds, as the venue answers). */
export interface KillSwitchStatus {
  readonly market: string;
  readonly startTime: number;
  readonly cancellationTime: number;
  readonly types: readonly KillSwitchOrderType[];
}

export type TransferResult = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly errors: Record<string, string[]> };

/** `validation` → HTTP 400 code 0; `balance` → 422 code 5 (exchange-facts §4). */
export type CreateCodeResult =
  | { readonly ok: true; readonly code: string; readonly message: string; readonly externalId: string }
  | { readonly ok: false; readonly reason: 'validation' | 'balance'; readonly message: string; readonly errors: Record<string, string[]> };

/** A public trade of the simulated market (for observers: the flow, recorders, tests). */
export interface SimTrade {
  readonly id: number;
  readonly market: string;
  /** Unix milliseconds. */
  readonly time: number;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly takerSide: Side;
}
