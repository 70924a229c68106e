import type { Decimal } from '../model/decimal.js';
import type { Deal, DealRole, Order, OrderType, Side, StpMode, VenueOrderStatus } from '../model/order.js';
import type { Cell } from './ledger.js';
import { fromUnits } from './units.js';

/**
 * The exchange's mutable order. The price is also kept as integer ticks (price / price step) so the
 * book compares integers; quantities are exact integer units of the ledger's scale (units.ts). The
 * Decimal inputs are kept to answer with exactly what was sent.
 */
export interface SimOrder {
  readonly id: number;
  readonly accountId: string;
  readonly clientOrderId: string;
  readonly market: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Unix seconds with a microsecond fraction. */
  readonly timestamp: number;
  readonly amount: Decimal;
  readonly price: Decimal;
  readonly ticks: number;
  readonly activationPrice?: Decimal;
  readonly amountU: bigint;
  leftU: bigint;
  dealMoneyU: bigint;
  dealFeeU: bigint;
  readonly postOnly: boolean;
  readonly ioc: boolean;
  readonly rpi: boolean;
  readonly stp: StpMode;
  status: VenueOrderStatus;
  /** Funds still frozen for this order (money for a buy, stock for a sell), in units. */
  lockU: bigint;
  /** Where the lock sits: the account's money cell for a buy, stock cell for a sell. */
  readonly lockCell: Cell;
  /** True while in the book or waiting as an untriggered stop. */
  open: boolean;
}

/** Immutable domain snapshot. */
export function toOrder(o: SimOrder, scale: number): Order {
  const order: Order = {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    type: o.type,
    timestamp: o.timestamp,
    amount: o.amount,
    price: o.price,
    left: o.leftU === o.amountU ? o.amount : fromUnits(o.leftU, scale),
    dealStock: fromUnits(o.amountU - o.leftU, scale),
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

/** One side of one fill, as recorded for the account (units; converted when read). */
export interface SimDeal {
  readonly id: number;
  readonly time: number;
  readonly market: string;
  readonly side: Side;
  readonly role: DealRole;
  readonly amountU: bigint;
  readonly price: Decimal;
  readonly dealU: bigint;
  readonly feeU: bigint;
  readonly orderId: number;
  readonly clientOrderId: string;
}

export function toDeal(d: SimDeal, scale: number): Deal {
  return {
    id: d.id,
    time: d.time,
    market: d.market,
    side: d.side,
    role: d.role,
    amount: fromUnits(d.amountU, scale),
    price: d.price,
    deal: fromUnits(d.dealU, scale),
    fee: fromUnits(d.feeU, scale),
    orderId: d.orderId,
    clientOrderId: d.clientOrderId,
  };
}
