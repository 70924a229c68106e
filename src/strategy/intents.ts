import type { LimitOrderRequest, StopLimitOrderRequest } from '../model/order.js';

/**
 * What a strategy asks for. Intents are requests, not orders: the engine quantizes and validates each
 * with the rules module, checks the risk limits, and only then submits it. A strategy instance is bound
 * to one market, so intents carry no market.
 */
export type Intent = PlaceLimitIntent | PlaceStopLimitIntent | CancelIntent | CancelAllIntent;

/** What a strategy asks of an order: the OrderRequest's terms (model/order.ts) but the market (its own) and the client id (the engine's). */
type Asked<R> = Omit<R, 'kind' | 'market' | 'clientOrderId'> & {
  /** Free label the strategy can use to recognise its own orders (e.g. `bid-0`, `grid-7`). Journalled. */
  readonly tag?: string;
};

/** Place a limit order (`kind` names the intent; the order's own kind is `limit`). */
export interface PlaceLimitIntent extends Asked<LimitOrderRequest> {
  readonly kind: 'place-limit';
}

/** Place a stop-limit order. */
export interface PlaceStopLimitIntent extends Asked<StopLimitOrderRequest> {
  readonly kind: 'place-stop-limit';
}

export interface CancelIntent {
  readonly kind: 'cancel';
  /** The engine-generated client order id, as seen on `ctx.orders$`. */
  readonly clientOrderId: string;
}

export interface CancelAllIntent {
  readonly kind: 'cancel-all';
}

export const placeLimit = (o: Omit<PlaceLimitIntent, 'kind'>): PlaceLimitIntent => ({ kind: 'place-limit', ...o });
export const placeStopLimit = (o: Omit<PlaceStopLimitIntent, 'kind'>): PlaceStopLimitIntent => ({ kind: 'place-stop-limit', ...o });
export const cancel = (clientOrderId: string): CancelIntent => ({ kind: 'cancel', clientOrderId });
export const cancelAll = (): CancelAllIntent => ({ kind: 'cancel-all' });
