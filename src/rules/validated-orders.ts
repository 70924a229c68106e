import type { Market } from '../model/market.js';
import type { RawOrderFields } from './order-fields.js';

/**
 * Requests already found valid by `validateOrder` in every rule but the account's client-order-id uniqueness (which
 * only the venue's caller can ask): the engine's gate validates each order it builds, and a venue in the same
 * process (the backtest's) gets that very object as its request and would validate it again, field for field.
 *
 * What the rules read is the market's figures, the request's fields and the kind; the record keeps the market
 * (by identity: markets are immutable values) and every field the rules read (by identity: Decimals are immutable,
 * the rest are primitives). A request whose fields all still hold what was validated, against the same market and
 * kind, gets the same answer from every rule again, so only the uniqueness check is left (see validateOrder).
 * Anything else - another object, a field changed since, another market object - is validated in full.
 */
interface Slot {
  fields: RawOrderFields | undefined;
  market: Market | undefined;
  kind: 'limit' | 'stop-limit';
  name: unknown;
  side: unknown;
  amount: unknown;
  price: unknown;
  activationPrice: unknown;
  clientOrderId: unknown;
  postOnly: unknown;
  ioc: unknown;
  rpi: unknown;
  stp: unknown;
}

/**
 * The last requests found valid, newest at `next - 1`: a ring, not a WeakMap keyed by request (a WeakMap's set costs
 * more than what it saves, and its entries weigh on every scavenge); a request validated again shortly after (within
 * the last SLOTS) is found, anything older is simply validated in full. Slots are reused, so remembering allocates
 * nothing, and at most SLOTS requests are held where nothing validates them again (the live daemon's REST client).
 */
const SLOTS = 32;
const slots: Slot[] = Array.from({ length: SLOTS }, () => ({
  fields: undefined,
  market: undefined,
  kind: 'limit',
  name: undefined,
  side: undefined,
  amount: undefined,
  price: undefined,
  activationPrice: undefined,
  clientOrderId: undefined,
  postOnly: undefined,
  ioc: undefined,
  rpi: undefined,
  stp: undefined,
}));
let next = 0;

/** Notes that `fields` passed every rule (but the uniqueness of its client order id) for `market` and `kind`. */
export function rememberValid(fields: RawOrderFields, market: Market, kind: 'limit' | 'stop-limit'): void {
  const s = slots[next]!;
  next = (next + 1) % SLOTS;
  s.fields = fields;
  s.market = market;
  s.kind = kind;
  s.name = fields.market;
  s.side = fields.side;
  s.amount = fields.amount;
  s.price = fields.price;
  s.activationPrice = fields.activationPrice;
  s.clientOrderId = fields.clientOrderId;
  s.postOnly = fields.postOnly;
  s.ioc = fields.ioc;
  s.rpi = fields.rpi;
  s.stp = fields.stp;
}

/** True when `fields` passed for this very market and kind and none of its fields changed since (see rememberValid). */
export function passedBefore(fields: RawOrderFields, market: Market | undefined, kind: 'limit' | 'stop-limit'): boolean {
  if (market === undefined) return false;
  for (let k = 1; k <= SLOTS; k++) {
    const p = slots[(next - k + SLOTS) % SLOTS]!;
    if (p.fields !== fields) continue;
    return (
      p.market === market &&
      p.kind === kind &&
      p.name === fields.market &&
      p.side === fields.side &&
      p.amount === fields.amount &&
      p.price === fields.price &&
      p.activationPrice === fields.activationPrice &&
      p.clientOrderId === fields.clientOrderId &&
      p.postOnly === fields.postOnly &&
      p.ioc === fields.ioc &&
      p.rpi === fields.rpi &&
      p.stp === fields.stp
    );
  }
  return false;
}
