import { parseDecimal, ZERO, type Decimal } from '../model/decimal.js';
import { gt, lt, lte } from '../model/decimal-compare.js';
import type { Market } from '../model/market.js';
import { MSG } from './messages.js';
import { amountStep, isOnStep, minPrice, priceStep } from './steps.js';
import type { RawOrderFields } from './order-fields.js';
import { totalAgainstLimits } from './total-limits.js';
import { passedBefore } from './validated-orders.js';
import { RULE_CODES as C, type RuleViolation } from './violation.js';

export type { RawOrderFields } from './order-fields.js';

export interface ValidateOptions {
  /** `limit` (order/new, the default) or `stop-limit` (order/stop_limit: activation price required, no flags). */
  readonly kind?: 'limit' | 'stop-limit';
  /** Uniqueness of the client order id within the account; the caller owns that state. */
  readonly isClientOrderIdUsed?: (id: string) => boolean;
  /** `errors` key for client order id violations; default the contract's `client_order_id` (live dialect: `clientOrderId`). */
  readonly clientOrderIdKey?: string;
}

/**
 * Letters, digits and dashes only. The contract's rule says exactly that while a field description also
 * mentions dots and underscores; we take the strict reading because an id that passes here must be
 * accepted by the live venue too (the engine generates ids with this check), and nothing is lost by
 * never using dots or underscores.
 */
export const CLIENT_ORDER_ID_PATTERN: RegExp = /^[A-Za-z0-9-]+$/;

const STP_VALUES: ReadonlySet<string> = new Set(['no', 'cancel_both', 'cancel_new', 'cancel_old', 'cb', 'cn', 'co']);

const absent = (v: unknown): boolean => v === undefined || v === null;

const FLAGS = ['postOnly', 'ioc', 'rpi'] as const;

function add(out: RuleViolation[], code: number, field: string, message: string): void {
  out.push({ code, field, message });
}

/**
 * Every violation, in the contract's order of precedence (the first is what the venue reports as `code`).
 * [] = valid. `market` undefined (unknown name) → code 31.
 *
 * Precedence: request shape (30: required fields, side, flags, stp) → market (31) → amount (32) →
 * price (33, then activation price) → total against the market limits (30, key `total`; only when amount
 * and price are numbers and the market is known) → client order id (36) → flag conflict (37, limit only).
 * Per field, checks that make later ones meaningless stop there (a non-number is not also "off step").
 */
export function validateOrder(market: Market | undefined, fields: RawOrderFields, options: ValidateOptions = {}): RuleViolation[] {
  const kind = options.kind ?? 'limit';
  // The very request validated before (the gate's order, at the backtest's venue): every rule but the id's
  // uniqueness would answer as then, i.e. nothing (see validated-orders.ts); the id check comes last but for 37,
  // which passed too.
  if (passedBefore(fields, market, kind)) {
    // rule 36 again: its type and characters passed then (the very same id: not tested again), its uniqueness is the
    // account's to answer now
    const idViolation = clientOrderIdUsedViolation(fields.clientOrderId, options);
    return idViolation === undefined ? [] : [idViolation];
  }
  return validateInFull(market, fields, options, kind);
}

/**
 * `validateOrder` for a request object the caller built in this very call (the gate's order): no object made then
 * can have passed before (validated-orders.ts remembers objects already validated), so it is validated in full
 * without looking it up among the last requests remembered.
 */
export function validateNewOrder(market: Market | undefined, fields: RawOrderFields, options: ValidateOptions = {}): RuleViolation[] {
  return validateInFull(market, fields, options, options.kind ?? 'limit');
}

/** Every rule, in the contract's order of precedence (see validateOrder). */
function validateInFull(market: Market | undefined, fields: RawOrderFields, options: ValidateOptions, kind: 'limit' | 'stop-limit'): RuleViolation[] {
  // no closure over `out` and no array of the flag names made per call: every order is validated here
  const out: RuleViolation[] = [];

  // 30: shape of the request.
  if (absent(fields.market)) add(out, C.default, 'market', MSG.required('market'));
  if (absent(fields.side)) add(out, C.default, 'side', MSG.required('side'));
  else if (fields.side !== 'buy' && fields.side !== 'sell') add(out, C.default, 'side', MSG.sideInvalid);
  if (absent(fields.amount)) add(out, C.default, 'amount', MSG.required('amount'));
  if (absent(fields.price)) add(out, C.default, 'price', MSG.required('price'));
  if (kind === 'stop-limit' && absent(fields.activationPrice)) add(out, C.default, 'activation_price', MSG.required('activation_price'));
  if (kind === 'limit') {
    for (const flag of FLAGS) {
      const v = fields[flag];
      if (!absent(v) && typeof v !== 'boolean') add(out, C.default, flag, MSG.flagNotBoolean(flag));
    }
  }
  if (!absent(fields.stp) && !(typeof fields.stp === 'string' && STP_VALUES.has(fields.stp))) add(out, C.default, 'stp', MSG.stpInvalid);

  // 31: market. Unknown name, empty string, a non-string or a market closed for trading.
  const name = fields.market;
  let known: Market | undefined;
  if (!absent(name)) {
    if (typeof name !== 'string') add(out, C.market, 'market', MSG.marketNotString);
    else if (name === '' || market === undefined || market.name !== name || !market.tradesEnabled) add(out, C.market, 'market', MSG.marketNotAvailable);
    else known = market;
  }

  // 32: amount.
  let amount: Decimal | undefined;
  if (!absent(fields.amount)) {
    const a = parseDecimal(fields.amount);
    if (a === undefined) add(out, C.amount, 'amount', MSG.amountNotNumber);
    else {
      amount = a;
      if (known !== undefined && lt(a, known.minAmount)) add(out, C.amount, 'amount', MSG.amountBelowMin(known.minAmount));
      else if (lte(a, ZERO)) add(out, C.amount, 'amount', MSG.amountNotPositive);
      if (known !== undefined && gt(a, ZERO) && !isOnStep(a, amountStep(known))) add(out, C.amount, 'amount', MSG.amountStep(amountStep(known)));
    }
  }

  // 33: price, then (stop-limit) activation price.
  let price: Decimal | undefined;
  if (!absent(fields.price)) {
    const p = parseDecimal(fields.price);
    if (p === undefined) add(out, C.price, 'price', MSG.priceNotNumber);
    else {
      price = p;
      if (known !== undefined && lt(p, minPrice(known))) add(out, C.price, 'price', MSG.priceBelowMin(minPrice(known)));
      else if (lte(p, ZERO)) add(out, C.price, 'price', MSG.priceNotPositive);
      if (known !== undefined && gt(p, ZERO) && !isOnStep(p, priceStep(known))) add(out, C.price, 'price', MSG.priceStep(priceStep(known)));
    }
  }
  if (kind === 'stop-limit' && !absent(fields.activationPrice)) {
    const ap = parseDecimal(fields.activationPrice);
    if (ap === undefined) add(out, C.price, 'activation_price', MSG.activationNotNumber);
    else if (lte(ap, ZERO)) add(out, C.price, 'activation_price', MSG.activationNotPositive);
  }

  // 30 (key total): the market's notional limits.
  if (known !== undefined && amount !== undefined && price !== undefined && gt(amount, ZERO) && gt(price, ZERO)) {
    const total = totalAgainstLimits(known, amount, price);
    if (total === 'below') add(out, C.default, 'total', MSG.totalBelowMin(known.minTotal));
    else if (total === 'above') add(out, C.default, 'total', MSG.totalAboveMax(known.maxTotal!));
  }

  // 36: client order id.
  const idViolation = clientOrderIdViolation(fields.clientOrderId, options);
  if (idViolation !== undefined) out.push(idViolation);

  // 37: ioc conflicts (order/new only; stop-limit has no such flags).
  if (kind === 'limit' && fields.ioc === true && (fields.postOnly === true || fields.rpi === true)) add(out, C.flagConflict, 'ioc', MSG.flagConflict);

  return out;
}

/** Rule 36, the client order id ('' and absent both mean "none given"): its type, its characters, its uniqueness. */
function clientOrderIdViolation(id: unknown, options: ValidateOptions): RuleViolation | undefined {
  if (absent(id) || id === '') return undefined;
  const field = options.clientOrderIdKey ?? 'client_order_id';
  if (typeof id !== 'string') return { code: C.clientOrderId, field, message: MSG.clientOrderIdNotString };
  if (!CLIENT_ORDER_ID_PATTERN.test(id)) return { code: C.clientOrderId, field, message: MSG.clientOrderIdChars };
  return clientOrderIdUsedViolation(id, options);
}

/** Rule 36's last part, for an id whose type and characters passed: its uniqueness within the account. */
function clientOrderIdUsedViolation(id: unknown, options: ValidateOptions): RuleViolation | undefined {
  if (absent(id) || id === '') return undefined;
  if (options.isClientOrderIdUsed?.(id as string) === true)
    return { code: C.clientOrderId, field: options.clientOrderIdKey ?? 'client_order_id', message: MSG.clientOrderIdUsed };
  return undefined;
}
