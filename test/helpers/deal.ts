import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';

/**
 * A buy deal of `amount` on BTC_USDT for order 7 (`mm-x-1`), maker, fee 0.01, at 100 or at `o.price` (its `deal` is
 * amount × price); `o` overrides any field.
 */
export const testDeal = (id: number, amount: string, o: Partial<Deal> = {}): Deal => {
  const price = o.price ?? D('100');
  return {
    id,
    time: 1,
    market: 'BTC_USDT',
    side: 'buy',
    role: 'maker',
    amount: D(amount),
    price,
    deal: D(amount).times(price),
    fee: D('0.01'),
    orderId: 7,
    clientOrderId: 'mm-x-1',
    ...o,
  };
};
