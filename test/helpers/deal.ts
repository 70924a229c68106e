import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';

/** A buy deal of `amount` at 100 on BTC_USDT for order 7 (`mm-x-1`), maker, fee 0.01; `o` overrides any field. */
export const testDeal = (id: number, amount: string, o: Partial<Deal> = {}): Deal => ({
  id,
  time: 1,
  market: 'BTC_USDT',
  side: 'buy',
  role: 'maker',
  amount: D(amount),
  price: D('100'),
  deal: D(amount).times(100),
  fee: D('0.01'),
  orderId: 7,
  clientOrderId: 'mm-x-1',
  ...o,
});
