import { parseDecimal, type Decimal } from '../../model/decimal.js';
import type { Side } from '../../model/order.js';
import { toErrorsMap, validateOrder, type RawOrderFields, type RuleViolation } from '../../rules/index.js';
import { innerValidationFailed, json, validationFailed, type SimReply } from './error-bodies.js';
import { orderRecord, readClientOrderId } from './dialect.js';
import { toStpMode } from '../../model/order.js';
import type { PlaceRejectReason, PlaceResult } from '../sim-types.js';
import { BotError } from '../../model/errors.js';
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
  const result = place(() => ctx.exchange.placeLimit(account.id, {
    market,
    side,
    amount,
    price,
    clientOrderId,
    postOnly: fields.postOnly === true,
    ioc: fields.ioc === true,
    rpi: fields.rpi === true,
    stp: toStpMode(fields.stp),
  }));
  if ('status' in result) return result;
  if (result.ok) return json(200, orderRecord(result.order, ctx.dialect), true);
  if (result.reason === 'balance') return innerValidationFailed(400, 10, { amount: [NOT_ENOUGH_BALANCE] });
  return rejection(result.reason, result.message, clientOrderIdKeyOf(ctx, body));
};

export const orderStopLimit: PrivateHandler = (ctx, account, body) => {
  const checked = check(ctx, account, body, 'stop-limit');
  if (!checked.ok) return checked.reply;
  const { fields, market, side, amount, price, clientOrderId } = checked;
  const result = place(() => ctx.exchange.placeStopLimit(account.id, {
    market,
    side,
    amount,
    price,
    activationPrice: parseDecimal(fields.activationPrice) as Decimal,
    clientOrderId,
    stp: toStpMode(fields.stp),
  }));
  if ('status' in result) return result;
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
  const feeViolation = checkMakerFee(body);
  if (feeViolation !== undefined) {
    // Code 35 sits between 33 and 36 in the contract's table; keep that precedence.
    const at = violations.findIndex((v) => v.code === 36 || v.code === 37);
    violations.splice(at === -1 ? violations.length : at, 0, feeViolation);
  }
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

/**
 * Code 35 (key `maker_fee`, "incorrect maker fee", api-v4.md's error table). The contract lists no
 * request field for it; the sim's reading: a request that carries `maker_fee` (or `makerFee`) must
 * give a fee in percent between 0 and 100. The venue charges the market's fee regardless, so a valid
 * value changes nothing.
 */
function checkMakerFee(body: Record<string, unknown>): RuleViolation | undefined {
  const raw = body['maker_fee'] !== undefined ? body['maker_fee'] : body['makerFee'];
  if (raw === undefined) return undefined;
  const fee = parseDecimal(raw);
  if (fee !== undefined && fee.gte(0) && fee.lte(100)) return undefined;
  return { code: 35, field: 'maker_fee', message: 'Incorrect maker fee.' };
}

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
