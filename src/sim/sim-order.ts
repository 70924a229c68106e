import type { Decimal } from '../model/decimal.js';
import type { Deal, DealRole, Order, VenueOrderStatus, VenueTerms } from '../model/order.js';
import type { Hold } from './settlement.js';
import { fromUnits } from './units.js';

/**
 * The exchange's mutable order. The price is also kept as integer ticks (price / price step) so the
 * book compares integers; quantities are exact integer units of the ledger's scale (units.ts). The
 * Decimal inputs are kept to answer with exactly what was sent. Its funds (the lock, where fills pay out) are a
 * settlement Hold (settlement.ts).
 */
export interface SimOrder extends VenueTerms, Hold {
  readonly id: number;
  readonly accountId: string;
  readonly clientOrderId: string;
  /** Unix seconds with a microsecond fraction. */
  readonly timestamp: number;
  readonly ticks: number;
  /** `ticks` as a bigint, for the settlement arithmetic. */
  readonly ticksU: bigint;
  readonly amountU: bigint;
  leftU: bigint;
  dealMoneyU: bigint;
  dealFeeU: bigint;
  status: VenueOrderStatus;
  /** The owning account's orders and deals (resolved once, not per fill). */
  readonly state: OrderOwner;
  /** True while in the book or waiting as an untriggered stop. */
  open: boolean;
  /** When it finished (filled or cancelled), Unix seconds; set by the matching engine. */
  finishedAt?: number;
}

/**
 * What an order needs from the account that owns it (AccountState implements it). Declared here, on the
 * order's side, so that sim-order.ts needs nothing from account-state.ts and the two do not import each other.
 */
export interface OrderOwner {
  /** Records an order that finished (filled, cancelled). */
  finish(order: SimOrder): void;
  /** Records the account's side of a fill. */
  addDeal(fill: SimFill, maker: boolean): void;
}

/** Immutable domain snapshot. */
export function toOrder(o: SimOrder, scale: number): Order {
  const leftU = o.leftU;
  const order: Order = {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    kind: o.kind,
    timestamp: o.timestamp,
    amount: o.amount,
    price: o.price,
    // The common cases reuse the order's own Decimals instead of converting units.
    left: leftU === o.amountU ? o.amount : fromUnits(leftU, scale),
    dealStock: leftU === 0n ? o.amount : fromUnits(o.amountU - leftU, scale),
    dealMoney: fromUnits(o.dealMoneyU, scale),
    dealFee: fromUnits(o.dealFeeU, scale),
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
    stp: o.stp,
    status: o.status,
  };
  return o.activationPrice === undefined ? order : { ...order, activationPrice: o.activationPrice };
}

/**
 * One fill between a resting maker and an incoming taker (amounts in units). Both accounts' deal logs
 * point at the same record: its maker deal has id 2·id − 1 and its taker deal 2·id.
 */
export interface SimFill {
  readonly id: number;
  readonly time: number;
  readonly market: string;
  readonly price: Decimal;
  readonly amountU: bigint;
  readonly dealU: bigint;
  readonly makerFeeU: bigint;
  readonly takerFeeU: bigint;
  readonly maker: SimOrder;
  readonly taker: SimOrder;
}

/** The deal one side of a fill records for its account. */
export function toDeal(f: SimFill, role: DealRole, scale: number): Deal {
  const maker = role === 'maker';
  const o = maker ? f.maker : f.taker;
  return {
    id: maker ? 2 * f.id - 1 : 2 * f.id,
    time: f.time,
    market: f.market,
    side: o.side,
    role,
    amount: fromUnits(f.amountU, scale),
    price: f.price,
    deal: fromUnits(f.dealU, scale),
    fee: fromUnits(maker ? f.makerFeeU : f.takerFeeU, scale),
    orderId: o.id,
    clientOrderId: o.clientOrderId,
  };
}
