import type { Decimal } from './decimal.js';

export type Side = 'buy' | 'sell';
export type OrderType = 'limit' | 'stop limit';
/** Self-trade prevention, long form. The venue also accepts the short forms cb, cn, co. */
export type StpMode = 'no' | 'cancel_both' | 'cancel_new' | 'cancel_old';
/** The statuses the simulated exchange reports; the live venue's are unreliable, so derive state from `left`/`dealStock`. */
export type VenueOrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | (string & {});

/** An order as the venue reports it, in domain form (dialect-independent). */
export interface Order {
  readonly orderId: number;
  /** '' when none was given. */
  readonly clientOrderId: string;
  readonly market: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Creation time, Unix seconds with a fraction. */
  readonly timestamp: number;
  readonly amount: Decimal;
  readonly price: Decimal;
  /** Stop-limit only. */
  readonly activationPrice?: Decimal;
  readonly left: Decimal;
  readonly dealStock: Decimal;
  readonly dealMoney: Decimal;
  readonly dealFee: Decimal;
  readonly postOnly: boolean;
  readonly ioc: boolean;
  readonly rpi: boolean;
  readonly stp: StpMode;
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
