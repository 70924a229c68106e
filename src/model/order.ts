import type { Decimal } from './decimal.js';

export type Side = 'buy' | 'sell';
/**
 * The two kinds of order, spelled this way everywhere in the project. The wire's `type` field says "limit" and
 * "stop limit" (venue/wire), and the journal keeps that spelling on disk (engine/journal-records.ts): both convert at
 * their boundary, once.
 */
export type OrderKind = 'limit' | 'stop-limit';
/** Self-trade prevention, long form. The venue also accepts the short forms cb, cn, co. */
export type StpMode = 'no' | 'cancel_both' | 'cancel_new' | 'cancel_old';
/** The statuses the simulated exchange reports; the live venue's are unreliable, so derive state from `left`/`dealStock`. */
export type VenueOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | (string & {});

/** What an order request has whatever its kind. */
interface OrderRequestBase {
  readonly market: string;
  readonly side: Side;
  /** The limit price. */
  readonly price: Decimal;
  /** Base amount. */
  readonly amount: Decimal;
  /** Letters, digits and dashes: how an order whose answer was lost is found again (the engine always gives one). */
  readonly clientOrderId?: string | undefined;
  readonly stp?: StpMode | undefined;
}

export interface LimitOrderRequest extends OrderRequestBase {
  readonly kind: 'limit';
  readonly postOnly?: boolean | undefined;
  readonly ioc?: boolean | undefined;
  readonly rpi?: boolean | undefined;
}

export interface StopLimitOrderRequest extends OrderRequestBase {
  readonly kind: 'stop-limit';
  /** The last-trade price that activates it: a buy at or above it, a sell at or below it; it then rests at `price`. */
  readonly activationPrice: Decimal;
}

/**
 * One order as asked of a venue: THE order type of the project. Every layer's view of an order derives from it -
 * intents (strategy/intents.ts), gated orders (engine/gate.ts), tracked orders and their views (engine/order-tracker.ts,
 * strategy/context.ts), journal records (engine/journal-records.ts), risk views, the venue's record below, the sim's
 * orders - and the client serializes it into the wire's request body in one module (venue/serialize-request.ts).
 */
export type OrderRequest = LimitOrderRequest | StopLimitOrderRequest;

/**
 * The terms of an order of either kind in one flat shape (the kind-specific fields optional), for the views that hold
 * orders of both kinds side by side: tracked orders, venue records, the sim's book.
 */
export type OrderTerms = Omit<LimitOrderRequest, 'kind' | 'clientOrderId'> & { readonly activationPrice?: Decimal | undefined; readonly kind: OrderKind };

/** Every field of T present and defined. */
type Present<T> = { readonly [K in keyof T]-?: Exclude<T[K], undefined> };

/** An order's terms as a venue holds them: every flag decided (false, 'no'), the activation price for a stop-limit. */
export type VenueTerms = Present<Omit<OrderTerms, 'activationPrice'>> & Pick<OrderTerms, 'activationPrice'>;

/** An order as the venue reports it, in domain form (dialect-independent): its terms, all present, and its progress. */
export interface Order extends VenueTerms {
  readonly orderId: number;
  /** '' when none was given. */
  readonly clientOrderId: string;
  /** Creation time, Unix seconds with a fraction. */
  readonly timestamp: number;
  readonly left: Decimal;
  readonly dealStock: Decimal;
  readonly dealMoney: Decimal;
  readonly dealFee: Decimal;
  readonly status: VenueOrderStatus;
}

export type DealRole = 'maker' | 'taker';

/** One execution of one of the account's orders. */
export interface Deal {
  readonly id: number;
  /** Unix seconds with a fraction. */
  readonly time: number;
  readonly market: string;
  readonly side: Side;
  readonly role: DealRole;
  /** Base amount. */
  readonly amount: Decimal;
  readonly price: Decimal;
  /** Quote amount (amount × price). */
  readonly deal: Decimal;
  /** Fee in the money (quote) asset. */
  readonly fee: Decimal;
  readonly orderId: number;
  readonly clientOrderId: string;
}

/** Every stp spelling the venue accepts, to its long form: the exchange's short forms cb/cn/co too (exchange-facts §5). */
const STP_MODES: Readonly<Record<string, StpMode>> = {
  no: 'no',
  cancel_both: 'cancel_both',
  cancel_new: 'cancel_new',
  cancel_old: 'cancel_old',
  cb: 'cancel_both',
  cn: 'cancel_new',
  co: 'cancel_old',
};

/** Long form of an stp value, or undefined when it is not one the venue accepts. */
export function toStpMode(value: unknown): StpMode | undefined {
  return typeof value === 'string' && Object.hasOwn(STP_MODES, value) ? STP_MODES[value] : undefined;
}
