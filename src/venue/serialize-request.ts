import { fmt } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import type { CreateCodeRequest, InvestmentsQuery, TransferRequest } from './account-records.js';
import type { CancelRequest, DealsQuery, OpenOrdersQuery, PlaceLimitRequest, PlaceStopLimitRequest } from './trading-api.js';
import type { OrderHistoryQuery } from './bulk-records.js';
import type { Writable } from '../model/writable.js';
import {
  BULK_MAX_ORDERS,
  KILL_SWITCH_MAX_SEC,
  KILL_SWITCH_MIN_SEC,
  type Dialect,
  type KillSwitchOrderType,
  type NewOrderBody,
  type RequestFields,
  type StopLimitBody,
} from './wire.js';

/**
 * Domain requests into the endpoint's own body fields (without `request`/`nonce`), in the dialect of
 * the venue: only the client order id of order creation is spelt differently (exchange-facts §8).
 * Decimals travel as canonical strings; optional fields are left out rather than sent as defaults.
 */

/** A request the client refuses to send because it cannot be right (not a venue answer). */
export class InvalidRequestError extends BotError {
  constructor(message: string) {
    super(message, { code: 'ERR_INVALID_REQUEST' });
  }
}

type Body = Record<string, unknown>;

function defined(fields: Body): Body {
  const out: Body = {};
  for (const k in fields) if (fields[k] !== undefined) out[k] = fields[k];
  return out;
}

/**
 * A limit OrderRequest into order/new's wire body (venue/wire/orders.ts NewOrderBody, the contract both the client and
 * the sim read): the one conversion of an order on its way out. Field by field rather than through `defined`: it runs
 * for every order placed.
 */
export function serializeLimitOrder(r: PlaceLimitRequest, dialect: Dialect): RequestFields<NewOrderBody> {
  const body: Writable<RequestFields<NewOrderBody>> = { market: r.market, side: r.side, amount: fmt(r.amount), price: fmt(r.price) };
  if (r.clientOrderId !== undefined) body[dialect === 'exchange' ? 'clientOrderId' : 'client_order_id'] = r.clientOrderId;
  if (r.postOnly !== undefined) body.postOnly = r.postOnly;
  if (r.ioc !== undefined) body.ioc = r.ioc;
  if (r.stp !== undefined) body.stp = r.stp;
  if (r.rpi !== undefined) body.rpi = r.rpi;
  return body;
}

/** A stop-limit OrderRequest into order/stop_limit's wire body (StopLimitBody). */
export function serializeStopLimitOrder(r: PlaceStopLimitRequest, dialect: Dialect): RequestFields<StopLimitBody> {
  const body: Writable<RequestFields<StopLimitBody>> = {
    market: r.market,
    side: r.side,
    amount: fmt(r.amount),
    price: fmt(r.price),
    // snake_case in both dialects
    activation_price: fmt(r.activationPrice),
  };
  if (r.clientOrderId !== undefined) body[dialect === 'exchange' ? 'clientOrderId' : 'client_order_id'] = r.clientOrderId;
  if (r.stp !== undefined) body.stp = r.stp;
  return body;
}

/** Exactly one of orderId / clientOrderId; camelCase in both dialects. */
export function serializeCancel(r: CancelRequest): Body {
  const byId = r.orderId !== undefined;
  const byClientId = r.clientOrderId !== undefined && r.clientOrderId !== '';
  if (byId === byClientId) throw new InvalidRequestError('cancel needs exactly one of orderId or clientOrderId');
  return defined({ market: r.market, orderId: r.orderId, clientOrderId: byClientId ? r.clientOrderId : undefined });
}

export function serializeOpenOrders(q: OpenOrdersQuery): Body {
  return defined({ market: q.market, orderId: q.orderId, clientOrderId: q.clientOrderId, limit: q.limit, offset: q.offset });
}

export function serializeDeals(q: DealsQuery): Body {
  return defined({ market: q.market, clientOrderId: q.clientOrderId, limit: q.limit, offset: q.offset });
}

export function serializeTransfer(r: TransferRequest): Body {
  return { ticker: r.ticker, amount: fmt(r.amount), from: r.from, to: r.to };
}

export function serializeCreateCode(r: CreateCodeRequest): Body {
  return defined({ ticker: r.ticker, amount: fmt(r.amount), passphrase: r.passphrase, description: r.description });
}

export function serializeInvestments(q: InvestmentsQuery): Body {
  return defined({ id: q.id, ticker: q.ticker, status: q.status, limit: q.limit, offset: q.offset });
}

/** Timeout in seconds 5-600 as a string (as the docs write it), or null to delete the timer; `types` only when given. */
export function serializeKillSwitch(market: string, timeoutSec: number | null, types?: readonly KillSwitchOrderType[]): Body {
  if (timeoutSec !== null && !(Number.isInteger(timeoutSec) && timeoutSec >= KILL_SWITCH_MIN_SEC && timeoutSec <= KILL_SWITCH_MAX_SEC)) {
    throw new InvalidRequestError(`kill-switch timeout must be an integer of seconds ${KILL_SWITCH_MIN_SEC}-${KILL_SWITCH_MAX_SEC} or null, got ${timeoutSec}`);
  }
  return { market, timeout: timeoutSec === null ? null : String(timeoutSec), ...(types !== undefined ? { types: [...types] } : {}) };
}

// ------------------------------------------------------------ batch endpoints (wire/order-batch.ts)

/** 1-20 limit orders, each serialized exactly as order/new's body (the venue validates each with the same rules). */
export function serializeBulkOrders(requests: readonly PlaceLimitRequest[], dialect: Dialect, stopOnFail?: boolean): Body {
  if (requests.length === 0 || requests.length > BULK_MAX_ORDERS) {
    throw new InvalidRequestError(`a bulk order request holds 1 to ${BULK_MAX_ORDERS} orders, got ${requests.length}`);
  }
  const body: Body = { orders: requests.map((r) => serializeLimitOrder(r, dialect)) };
  if (stopOnFail !== undefined) body.stopOnFail = stopOnFail;
  return body;
}

export function serializeOrderHistory(q: OrderHistoryQuery): Body {
  return defined({
    market: q.market,
    orderId: q.orderId,
    clientOrderId: q.clientOrderId,
    status: q.status,
    startDate: q.startDate,
    endDate: q.endDate,
    limit: q.limit,
    offset: q.offset,
  });
}
