import { parseDecimal, type Decimal } from '../../model/decimal.js';
import { toStpMode, type OrderKind, type Side } from '../../model/order.js';
import { toErrorsMap, validateOrder, type RawOrderFields, type RuleViolation } from '../../rules/index.js';
import type { NewOrderBody, RequestFields, StopLimitBody } from '../../venue/wire.js';
import type { LimitOrderInput, StopLimitInput } from '../sim-types.js';
import { validationFailed, type SimReply } from './error-bodies.js';
import type { RouteContext, SimAccountRef } from './route-context.js';

/**
 * order/new's and order/stop_limit's body read by the wire contract's own field names (venue/wire/orders.ts, the
 * contract the client writes by: serialize-request.ts); the values are unchecked until the rules check them.
 */
type OrderBodyFields = { readonly [K in keyof RequestFields<NewOrderBody> | keyof RequestFields<StopLimitBody>]?: unknown };

export type ReadOrder<K extends OrderKind> =
  | { readonly ok: false; readonly reply: SimReply }
  | { readonly ok: true; readonly request: K extends 'limit' ? LimitOrderInput : StopLimitInput; readonly clientOrderIdKey: string };

/**
 * The one place the sim parses an order request INTO its domain form (an OrderRequest as the exchange takes it): the
 * body read through the wire types, validated with the shared rules module exactly as the client's gate checks it
 * (422 and the code of the first violation, exchange-facts §4), the maker-fee field checked, then the typed request.
 * order/new, order/stop_limit and each item of order/bulk come through here.
 */
export function readOrderRequest<K extends OrderKind>(ctx: RouteContext, account: SimAccountRef, body: Record<string, unknown>, kind: K): ReadOrder<K> {
  const wire = body as OrderBodyFields;
  const clientOrderIdKey = clientOrderIdKeyOf(ctx, body);
  const fields: RawOrderFields = {
    market: wire.market,
    side: wire.side,
    amount: wire.amount,
    price: wire.price,
    activationPrice: kind === 'stop-limit' ? wire.activation_price : undefined,
    clientOrderId: wire.client_order_id !== undefined ? wire.client_order_id : wire.clientOrderId,
    postOnly: wire.postOnly,
    ioc: wire.ioc,
    rpi: wire.rpi,
    stp: wire.stp,
  };
  const market = typeof fields.market === 'string' ? ctx.exchange.markets.get(fields.market) : undefined;
  const violations = validateOrder(market, fields, {
    kind,
    clientOrderIdKey,
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
  const terms = {
    market: fields.market as string,
    side: fields.side as Side,
    amount: parseDecimal(fields.amount) as Decimal,
    price: parseDecimal(fields.price) as Decimal,
    ...(typeof id === 'string' && id !== '' ? { clientOrderId: id } : {}),
    ...(toStpMode(fields.stp) !== undefined ? { stp: toStpMode(fields.stp)! } : {}),
  };
  const request =
    kind === 'limit'
      ? { ...terms, postOnly: fields.postOnly === true, ioc: fields.ioc === true, rpi: fields.rpi === true }
      : { ...terms, activationPrice: parseDecimal(fields.activationPrice) as Decimal };
  return { ok: true, request: request as K extends 'limit' ? LimitOrderInput : StopLimitInput, clientOrderIdKey };
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

/** Errors name the client order id the way the request spelled it (else the dialect's spelling). */
function clientOrderIdKeyOf(ctx: RouteContext, body: Record<string, unknown>): string {
  if (body['client_order_id'] !== undefined) return 'client_order_id';
  if (body['clientOrderId'] !== undefined) return 'clientOrderId';
  return ctx.dialect === 'exchange' ? 'clientOrderId' : 'client_order_id';
}
