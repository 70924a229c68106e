/**
 * The virtual exchange's record of an order it accepted: the request's terms, its flags in the venue's long forms,
 * nothing dealt yet, and the settlement's hold on the funds it locks.
 */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import type { OrderKind } from '../../src/model/order.js';
import { normaliseStp } from '../../src/sim/order-input.js';
import type { Hold } from '../../src/sim/settlement.js';
import type { LimitOrderInput, StopLimitInput } from '../../src/sim/sim-types.js';
import type { VirtualOrder } from './account-orders.js';

export function virtualOrder(
  input: LimitOrderInput | StopLimitInput,
  kind: OrderKind,
  id: number,
  ticks: number,
  /** Engine time, ms. */
  now: number,
  hold: Hold,
): VirtualOrder {
  const limit = input as LimitOrderInput;
  const order: VirtualOrder = {
    id,
    clientOrderId: input.clientOrderId ?? '',
    market: input.market,
    side: input.side,
    kind,
    timestamp: now / 1000,
    amount: input.amount,
    price: input.price,
    ticks,
    left: input.amount,
    dealStock: ZERO,
    dealMoney: ZERO,
    dealFee: ZERO,
    postOnly: kind === 'limit' && limit.postOnly === true,
    ioc: kind === 'limit' && limit.ioc === true,
    rpi: kind === 'limit' && limit.rpi === true,
    stp: normaliseStp(input.stp),
    status: 'NEW',
    lockU: hold.lockU,
    lockCell: hold.lockCell,
    gainCell: hold.gainCell,
    open: true,
  };
  // after the literal, not spread into it (V8's slow path, for every order): a limit order has no such key at all
  const activationPrice = 'activationPrice' in input ? input.activationPrice : undefined;
  if (activationPrice !== undefined) (order as { activationPrice?: Decimal }).activationPrice = activationPrice;
  return order;
}
