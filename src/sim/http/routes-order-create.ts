import { parseDecimal, type Decimal } from '../../model/decimal.js';
import type { Side } from '../../model/order.js';
import { toErrorsMap, validateOrder, type RawOrderFields } from '../../rules/index.js';
import { innerValidationFailed, json, validationFailed, type SimReply } from './error-bodies.js';
import { orderRecord, readClientOrderId } from './dialect.js';
import { normaliseStp } from './request-fields.js';
import type { PlaceRejectReason } from '../sim-types.js';
import type { PrivateHandler, RouteContext, SimAccountRef } from './route-context.js';

/**
 * order/new and order/stop_limit. Request validation is the shared rules module's (422, code of
 * the first violation, exchange-facts §4); the exchange then enforces the balance: a limit order
 * the balance cannot cover is an INNER validation failure (400 code 10), while the contract words
 * the stop-limit case as code 32 on `amount` (422).
 */
const NOT_ENOUGH_BALANCE = 'Not enough balance.';

export const orderNew: PrivateHandler = (ctx, account, body) => {
  const checked = check(ctx, account, body, 'limit');
  if (!checked.ok) return checked.reply;
  const { fields, market, side, amount, price, clientOrderId } = checked;
  const result = ctx.exchange.placeLimit(account.id, {
    market,
    side,
    amount,
    price,
    clientOrderId,
    postOnly: fields.postOnly === true,
    ioc: fields.ioc === true,
    rpi: fields.rpi === true,
    stp: normaliseStp(fields.stp),
  });
  if (result.ok) return json(200, orderRecord(result.order, ctx.dialect), true);
  if (result.reason === 'balance') return innerValidationFailed(400, 10, { amount: [NOT_ENOUGH_BALANCE] });
  return rejection(result.reason, result.message, clientOrderIdKeyOf(ctx, body));
};

export const orderStopLimit: PrivateHandler = (ctx, account, body) => {
  const checked = check(ctx, account, body, 'stop-limit');
  if (!checked.ok) return checked.reply;
  const { fields, market, side, amount, price, clientOrderId } = checked;
  const result = ctx.exchange.placeStopLimit(account.id, {
    market,
    side,
    amount,
    price,
    activationPrice: parseDecimal(fields.activationPrice) as Decimal,
    clientOrderId,
    stp: normaliseStp(fields.stp),
  });
  if (result.ok) return json(200, orderRecord(result.order, ctx.dialect), true);
  if (result.reason === 'balance') return validationFailed(422, 32, { amount: [NOT_ENOUGH_BALANCE] });
  return rejection(result.reason, result.message, clientOrderIdKeyOf(ctx, body));
};

type Checked =
  | { ok: false; reply: SimReply }
  | { ok: true; fields: RawOrderFields; market: string; side: Side; amount: Decimal; price: Decimal; clientOrderId: string | undefined };

function check(ctx: RouteContext, account: SimAccountRef, body: Record<string, unknown>, kind: 'limit' | 'stop-limit'): Checked {
  const fields: RawOrderFields = {
    market: body['market'],
    side: body['side'],
    amount: body['amount'],
    price: body['price'],
    activationPrice: kind === 'stop-limit' ? body['activation_price'] : undefined,
    clientOrderId: readClientOrderId(body),
    postOnly: body['postOnly'],
    ioc: body['ioc'],
    rpi: body['rpi'],
    stp: body['stp'],
  };
  const market = typeof fields.market === 'string' ? ctx.exchange.markets.get(fields.market) : undefined;
  const violations = validateOrder(market, fields, {
    kind,
    clientOrderIdKey: clientOrderIdKeyOf(ctx, body),
    isClientOrderIdUsed: (id) => ctx.exchange.isClientOrderIdUsed(account.id, id),
  });
  const first = violations[0];
  if (first !== undefined) return { ok: false, reply: validationFailed(422, first.code, toErrorsMap(violations)) };
  const id = fields.clientOrderId;
  return {
    ok: true,
    fields,
    market: fields.market as string,
    side: fields.side as Side,
    amount: parseDecimal(fields.amount) as Decimal,
    price: parseDecimal(fields.price) as Decimal,
    clientOrderId: typeof id === 'string' && id !== '' ? id : undefined,
  };
}

/** Errors name the client order id the way the request spelled it (else the dialect's spelling). */
function clientOrderIdKeyOf(ctx: RouteContext, body: Record<string, unknown>): string {
  if (body['client_order_id'] !== undefined) return 'client_order_id';
  if (body['clientOrderId'] !== undefined) return 'clientOrderId';
  return ctx.dialect === 'exchange' ? 'clientOrderId' : 'client_order_id';
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
