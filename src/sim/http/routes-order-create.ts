import { innerValidationFailed, json, validationFailed, type SimReply } from './error-bodies.js';
import { orderRecord } from './dialect.js';
import { readOrderRequest } from './order-request.js';
import type { PlaceRejectReason, PlaceResult } from '../sim-types.js';
import { BotError } from '../../model/errors.js';
import type { PrivateHandler } from './route-context.js';

/**
 * order/new and order/stop_limit. Request validation is the shared rules module's (422, code of
 * the first violation, exchange-facts §4); the exchange then enforces the balance: a limit order
 * the balance cannot cover is an INNER validation failure (400 code 10), while the contract words
 * the stop-limit case as code 32 on `amount` (422).
 */
const NOT_ENOUGH_BALANCE = 'Not enough balance.';

export const orderNew: PrivateHandler = (ctx, account, body) => {
  const read = readOrderRequest(ctx, account, body, 'limit');
  if (!read.ok) return read.reply;
  const result = place(() => ctx.exchange.placeLimit(account.id, read.request));
  if ('status' in result) return result;
  if (result.ok) return json(200, orderRecord(result.order, ctx.dialect), true);
  if (result.reason === 'balance') return innerValidationFailed(400, 10, { amount: [NOT_ENOUGH_BALANCE] });
  return rejection(result.reason, result.message, read.clientOrderIdKey);
};

export const orderStopLimit: PrivateHandler = (ctx, account, body) => {
  const read = readOrderRequest(ctx, account, body, 'stop-limit');
  if (!read.ok) return read.reply;
  const result = place(() => ctx.exchange.placeStopLimit(account.id, read.request));
  if ('status' in result) return result;
  if (result.ok) return json(200, orderRecord(result.order, ctx.dialect), true);
  if (result.reason === 'balance') return validationFailed(422, 32, { amount: [NOT_ENOUGH_BALANCE] });
  return rejection(result.reason, result.message, read.clientOrderIdKey);
};

/**
 * The core refuses a price it cannot hold as integer ticks (beyond 2^53 steps); the venue would
 * refuse such a price too, so it is a price validation failure (33), never a 500.
 */
function place(fn: () => PlaceResult): PlaceResult | SimReply {
  try {
    return fn();
  } catch (error) {
    if (error instanceof BotError && error.code === 'ERR_SIM_PRICE_GRID') return validationFailed(422, 33, { price: ['The price is too large.'] });
    throw error;
  }
}

/**
 * Exchange-side refusals other than balance. A post-only (or rpi) order that would take is refused
 * as inner validation (400 code 10). Market and client-order-id refusals can only happen in a race
 * with the rules check, and answer as the rules would (422, 31 / 36).
 */
function rejection(reason: PlaceRejectReason, message: string, clientOrderIdKey: string): SimReply {
  switch (reason) {
    case 'market':
      return validationFailed(422, 31, { market: [message] });
    case 'client-order-id':
      return validationFailed(422, 36, { [clientOrderIdKey]: [message] });
    case 'post-only':
      return innerValidationFailed(400, 10, { postOnly: [message] });
    default:
      return innerValidationFailed(400, 10, { request: [message] });
  }
}
