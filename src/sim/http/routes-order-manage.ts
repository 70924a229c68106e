import { MSG } from '../../rules/index.js';
import { innerValidationFailed, json, validationFailed, type SimReply } from './error-bodies.js';
import { orderRecord, readClientOrderId } from './dialect.js';
import { ErrorsMap, readInt, readString } from './request-fields.js';
import type { PrivateHandler, RouteContext } from './route-context.js';

/**
 * order/cancel, orders (open orders) and order/kill-switch (exchange-facts §6). Request problems
 * answer 422 like the order endpoints: code 31 for an unknown market, 30 for anything else.
 */

export const orderCancel: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = requireMarket(ctx, body['market'], errors);
  const orderId = errors.take('orderId', readInt(body['orderId'] ?? body['order_id'], 'order id', 1, Number.MAX_SAFE_INTEGER));
  const clientOrderId = errors.take('clientOrderId', readString(readClientOrderId(body), 'client order id'));
  const hasClientId = clientOrderId !== undefined && clientOrderId !== '';
  if (errors.empty && orderId === undefined && !hasClientId) errors.add('orderId', 'The order id field is required when client order id is not present.');
  if (errors.empty && orderId !== undefined && hasClientId) errors.add('orderId', 'Give either the order id or the client order id, not both.');
  if (!errors.empty || market === undefined) return reject(errors);
  const cancelled = ctx.exchange.cancel(account.id, market, orderId !== undefined ? { orderId } : { clientOrderId: clientOrderId as string });
  if (cancelled === undefined) return innerValidationFailed(400, 2, { orderId: ['Unexecuted order was not found.'] });
  return json(200, orderRecord(cancelled, ctx.dialect));
};

export const orders: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = body['market'] === undefined || body['market'] === null ? undefined : requireMarket(ctx, body['market'], errors);
  const orderId = errors.take('orderId', readInt(body['orderId'] ?? body['order_id'], 'order id', 1, Number.MAX_SAFE_INTEGER));
  const clientOrderId = errors.take('clientOrderId', readString(readClientOrderId(body), 'client order id'));
  const limit = errors.take('limit', readInt(body['limit'], 'limit', 1, 100, 50));
  const offset = errors.take('offset', readInt(body['offset'], 'offset', 0, 10_000, 0));
  if (!errors.empty) return reject(errors);
  const list = ctx.exchange.openOrders(account.id, {
    market,
    orderId,
    clientOrderId: clientOrderId === '' ? undefined : clientOrderId,
    limit,
    offset,
  });
  return json(200, list.map((o) => orderRecord(o, ctx.dialect)));
};

/** `timeout` seconds 5-600 (string or number), or null to clear the dead-man timer. */
export const killSwitch: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = requireMarket(ctx, body['market'], errors);
  let timeout: number | null = null;
  if (!('timeout' in body)) errors.add('timeout', MSG.required('timeout'));
  else if (body['timeout'] !== null) timeout = errors.take('timeout', readInt(body['timeout'], 'timeout', 5, 600)) ?? null;
  if (!errors.empty || market === undefined) return reject(errors);
  const result = ctx.exchange.killSwitch(account.id, market, timeout);
  // Clearing has no timer to report; answer an empty array as the venue does for void results (our choice).
  return json(200, result ?? []);
};

/** Market present (30) and tradable (31); records the message and returns undefined otherwise. */
function requireMarket(ctx: RouteContext, value: unknown, errors: ErrorsMap): string | undefined {
  if (value === undefined || value === null) {
    errors.add('market', MSG.required('market'));
    return undefined;
  }
  if (typeof value !== 'string' || !ctx.exchange.markets.has(value)) {
    errors.add('market', MSG.marketNotAvailable);
    return undefined;
  }
  return value;
}

/** 422 with code 31 when the market is the first problem, 30 otherwise. */
function reject(errors: ErrorsMap): SimReply {
  const [first] = Object.entries(errors.errors);
  const code = first !== undefined && first[0] === 'market' && first[1][0] === MSG.marketNotAvailable ? 31 : 30;
  return validationFailed(422, code, errors.errors);
}
