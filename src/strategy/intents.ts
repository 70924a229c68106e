import type { Decimal } from '../model/decimal.js';
import type { Side, StpMode } from '../model/order.js';

/**
 * What a strategy asks for. Intents are requests, not orders: the engine quantizes and validates each
 * with the rules module, checks the risk limits, and only then submits it. A strategy instance is bound
 * to one market, so intents carry no market.
 */
export type Intent = PlaceLimitIntent | PlaceStopLimitIntent | CancelIntent | CancelAllIntent;

export interface PlaceLimitIntent {
  readonly kind: 'place-limit';
  readonly side: Side;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly postOnly?: boolean;
  readonly ioc?: boolean;
  readonly rpi?: boolean;
  readonly stp?: StpMode;
  /** Free label the strategy can use to recognise its own orders (e.g. `bid-0`, `grid-7`). Journalled. */
  readonly tag?: string;
}

export interface PlaceStopLimitIntent {
  readonly kind: 'place-stop-limit';
  readonly side: Side;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly activationPrice: Decimal;
  readonly stp?: StpMode;
  readonly tag?: string;
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
