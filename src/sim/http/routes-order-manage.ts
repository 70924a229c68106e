import { MSG } from '../../rules/index.js';
import { innerValidationFailed, json, validationFailed, type SimReply } from './error-bodies.js';
import { orderRecord, readClientOrderId } from './dialect.js';
import { ErrorsMap, readInt, readString, type Read } from './request-fields.js';
import type { PrivateHandler, RouteContext } from './route-context.js';
import type { KillSwitchStatus } from '../sim-types.js';
import {
  KILL_SWITCH_MAX_SEC,
  KILL_SWITCH_MIN_SEC,
  KILL_SWITCH_ORDER_TYPES,
  type KillSwitchOrderType,
  type KillSwitchStatusResponse,
  type KillSwitchTimer,
} from '../../venue/wire.js';

/**
 * order/cancel, orders (open orders), order/kill-switch and its status (exchange-facts §6). Request problems
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
  return json(
    200,
    list.map((o) => orderRecord(o, ctx.dialect)),
  );
};

/**
 * order/kill-switch (wire/kill-switch.ts): `timeout` seconds 5-600 (string or number), or null to delete the
 * timer; `types` optional. Messages in the docs' wording; answers camelCase in both dialects (the docs' only spelling).
 */
export const killSwitch: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = requireMarket(ctx, body['market'], errors, KILL_SWITCH_MSG.marketRequired);
  let timeout: number | null = null;
  if (!('timeout' in body)) errors.add('timeout', KILL_SWITCH_MSG.timeoutRequired);
  else if (body['timeout'] !== null) timeout = errors.take('timeout', readTimeout(body['timeout'])) ?? null;
  const types = errors.take('types', readTypes(body['types']));
  if (!errors.empty || market === undefined) return reject(errors);
  const result = ctx.exchange.killSwitch(account.id, market, timeout, types);
  // Deleting has no timer to report and the docs show no body: answer an empty array, as for other void results.
  return json(200, result === undefined ? [] : timerRecord(result));
};

/** order/kill-switch/status: the account's running timers, of `market` (optional) or of all markets. */
export const killSwitchStatus: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const market = body['market'] === undefined || body['market'] === null ? undefined : requireMarket(ctx, body['market'], errors);
  if (!errors.empty) return reject(errors);
  const list: KillSwitchStatusResponse = ctx.exchange.killSwitchStatus(account.id, market).map(timerRecord);
  return json(200, list);
};

const KILL_SWITCH_MSG = {
  marketRequired: 'Market field is required.',
  timeoutRequired: 'Timeout field is required.',
  timeoutNotInteger: 'Timeout should be an integer number of seconds.',
  timeoutMin: `Timeout should be at least ${KILL_SWITCH_MIN_SEC}.`,
  timeoutMax: `Timeout should be at most ${KILL_SWITCH_MAX_SEC}.`,
  typesInvalid: `Types should be an array of ${KILL_SWITCH_ORDER_TYPES.join(', ')}.`,
} as const;

function readTimeout(value: unknown): Read<number> {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n)) return { ok: false, message: KILL_SWITCH_MSG.timeoutNotInteger };
  if (n < KILL_SWITCH_MIN_SEC) return { ok: false, message: KILL_SWITCH_MSG.timeoutMin };
  if (n > KILL_SWITCH_MAX_SEC) return { ok: false, message: KILL_SWITCH_MSG.timeoutMax };
  return { ok: true, value: n };
}

/** Absent or null: every type (the docs: "If types=null - create timer by market for all order types"). */
function readTypes(value: unknown): Read<readonly KillSwitchOrderType[]> {
  if (value === undefined || value === null) return { ok: true, value: KILL_SWITCH_ORDER_TYPES };
  const known: readonly unknown[] = KILL_SWITCH_ORDER_TYPES;
  if (!Array.isArray(value) || value.length === 0 || !value.every((t) => known.includes(t))) return { ok: false, message: KILL_SWITCH_MSG.typesInvalid };
  return { ok: true, value: [...new Set(value as KillSwitchOrderType[])] };
}

function timerRecord(t: KillSwitchStatus): KillSwitchTimer {
  return { market: t.market, startTime: t.startTime, cancellationTime: t.cancellationTime, types: [...t.types] };
}

/** Market present (30) and tradable (31); records the message and returns undefined otherwise. */
function requireMarket(ctx: RouteContext, value: unknown, errors: ErrorsMap, requiredMessage: string = MSG.required('market')): string | undefined {
  if (value === undefined || value === null) {
    errors.add('market', requiredMessage);
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
