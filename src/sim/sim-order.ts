import type { Decimal } from '../model/decimal.js';
import type { Order, OrderType, Side, StpMode, VenueOrderStatus } from '../model/order.js';
import type { Cell } from './ledger.js';

/**
 * The exchange's mutable order. Prices are also kept as integer ticks (price / price step) so the
 * book compares and sorts plain integers; money fields stay Decimal.
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
  left: Decimal;
  dealStock: Decimal;
  dealMoney: Decimal;
  dealFee: Decimal;
  readonly postOnly: boolean;
  readonly ioc: boolean;
  readonly rpi: boolean;
  readonly stp: StpMode;
  status: VenueOrderStatus;
  /** Funds still frozen for this order (money for a buy, stock for a sell). */
  locked: Decimal;
  /** Where `locked` sits: the account's money cell for a buy, stock cell for a sell. */
  readonly lockCell: Cell;
  /** Fee rate reserved in a buy's lock (the highest rate the order can pay). */
  readonly feeLock: Decimal;
  /** True while in the book or waiting as an untriggered stop. */
  open: boolean;
}

/** Immutable domain snapshot (Decimals are immutable, so copying the references is enough). */
export function toOrder(o: SimOrder): Order {
  const order: Order = {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    market: o.market,
    side: o.side,
    type: o.type,
    timestamp: o.timestamp,
    amount: o.amount,
    price: o.price,
    left: o.left,
    dealStock: o.dealStock,
    dealMoney: o.dealMoney,
    dealFee: o.dealFee,
    postOnly: o.postOnly,
    ioc: o.ioc,
    rpi: o.rpi,
    stp: o.stp,
    status: o.status,
  };
  return o.activationPrice === undefined ? order : { ...order, activationPrice: o.activationPrice };
}
