import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Decimal } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { orderRecordDefects } from '../../src/venue/plausible.js';

/** orderRecordDefects as it was written with decimal.js's own comparisons and sum: the reference. */
function reference(o: Order): string[] {
  const out: string[] = [];
  if (!o.amount.isFinite() || !o.amount.isPositive() || o.amount.isZero()) out.push(`amount ${o.amount.toFixed()} is not positive`);
  if (!o.price.isFinite() || !o.price.isPositive() || o.price.isZero()) out.push(`price ${o.price.toFixed()} is not positive`);
  if (o.activationPrice !== undefined && (!o.activationPrice.isPositive() || o.activationPrice.isZero()))
    out.push(`activation price ${o.activationPrice.toFixed()} is not positive`);
  if (o.left.isNegative()) out.push(`left ${o.left.toFixed()} is negative`);
  else if (o.left.gt(o.amount)) out.push(`left ${o.left.toFixed()} is above the amount ${o.amount.toFixed()}`);
  if (o.dealStock.isNegative()) out.push(`deal stock ${o.dealStock.toFixed()} is negative`);
  else if (o.dealStock.gt(o.amount)) out.push(`deal stock ${o.dealStock.toFixed()} is above the amount ${o.amount.toFixed()}`);
  else if (o.left.plus(o.dealStock).gt(o.amount))
    out.push(`left ${o.left.toFixed()} + deal stock ${o.dealStock.toFixed()} is above the amount ${o.amount.toFixed()}`);
  if (o.dealMoney.isNegative()) out.push(`deal money ${o.dealMoney.toFixed()} is negative`);
  if (o.dealFee.isNegative()) out.push(`deal fee ${o.dealFee.toFixed()} is negative`);
  return out;
}

/** Amounts around one another: small, zero of either sign, negative, NaN, and values of more digits than the precision. */
const value = fc.oneof(
  fc.constantFrom('0', '-0', '1', '0.5', '2', '-1', 'NaN', 'Infinity', '0.01', '1.0000000000000000000000000000000000000000000000000000000000000000001'),
  fc.tuple(fc.integer({ min: -3, max: 2000 }), fc.integer({ min: 0, max: 4 })).map(([m, k]) => `${m}e-${k}`),
  fc.tuple(fc.constantFrom('1', '0.99', '2'), fc.integer({ min: 40, max: 80 })).map(([x, k]) => `${x}${'0'.repeat(k)}1`.replace(/^(\d)(\d)/, '$1.$2')),
);

const order = (amount: Decimal, left: Decimal, dealStock: Decimal, dealMoney: Decimal): Order => ({
  orderId: 1,
  clientOrderId: 'c',
  market: 'BTC_USDT',
  side: 'buy',
  kind: 'limit',
  timestamp: 0,
  amount,
  price: D('100'),
  left,
  dealStock,
  dealMoney,
  dealFee: D('0'),
  postOnly: false,
  ioc: false,
  rpi: false,
  stp: 'no',
  status: 'open',
});

describe('orderRecordDefects (every place, cancel and open-orders answer)', () => {
  it('property: the very defects decimal.js comparisons and sum gave, messages included', () => {
    fc.assert(
      fc.property(value, value, fc.oneof(fc.constant('0'), value), value, (amount, left, dealt, money) => {
        const o = order(D(amount), D(left), D(dealt), D(money));
        expect(orderRecordDefects(o)).toEqual(reference(o));
      }),
      { numRuns: 5000 },
    );
  });

  it('a left of more digits than the precision is summed, not taken as is (nothing dealt)', () => {
    const left = D('1.0000000000000000000000000000000000000000000000000000000000000000001');
    // above the amount by 1e-67: said once, as decimal.js says it; the sum (rounded to 60 digits) is not above it
    expect(orderRecordDefects(order(D(1), left, D(0), D(0)))).toEqual([`left ${left.toFixed()} is above the amount 1`]);
  });
});
