import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseOrder, parseOrders, readOrderRecord, wireOrderSchema } from '../../src/venue/parse-order.js';
import { orderRecordJson } from './helpers/scripted-server.js';

/** Mostly what a venue sends, now and then an odd value of the kind a broken answer holds. */
const field = <T, U>(good: fc.Arbitrary<T>, odd: fc.Arbitrary<U>): fc.Arbitrary<T | U> =>
  fc.oneof({ weight: 15, arbitrary: good }, { weight: 1, arbitrary: odd });
const decimal = field(
  fc.oneof(fc.constantFrom('0', '0.01', '30000', '-2', '.5', '1.'), fc.integer().map(String), fc.double({ noNaN: true, noDefaultInfinity: true })),
  fc.constantFrom('1e-3', ' 1', 'abc', '', null, true, undefined, Number.NaN, Number.POSITIVE_INFINITY),
);
const optionalBool = field(fc.constantFrom(true, false, undefined), fc.constantFrom(0, 'true', null));

const valid = JSON.parse(orderRecordJson('b-1')) as Record<string, unknown>;

/** Contract spelling first, the live venue's second (exchange-facts §8). */
const ALIASES: Record<string, string> = {
  order_id: 'orderId',
  client_order_id: 'clientOrderId',
  deal_money: 'dealMoney',
  deal_stock: 'dealStock',
  deal_fee: 'dealFee',
  activation_price: 'activationPrice',
};

/** A record in either dialect or a mix of both, any field possibly odd. */
const record = fc
  .tuple(
    fc.record({
      order_id: field(fc.oneof(fc.integer(), fc.constantFrom('42', '-7')), fc.constantFrom('4.5', 'x', 2 ** 53, 1.5, Number.NaN, null, undefined)),
      client_order_id: field(fc.oneof(fc.string(), fc.constantFrom(null, undefined)), fc.constant(5)),
      market: field(fc.constantFrom('BTC_USDT', 'ETH_USDT'), fc.constantFrom('', 1, undefined)),
      side: field(fc.constantFrom('buy', 'sell'), fc.constantFrom('long', 1, undefined)),
      type: field(fc.constantFrom('limit', 'stop limit', 'Stop-Limit', 'market'), fc.constantFrom(1, undefined)),
      timestamp: field(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom('1', null, Number.NaN, Number.NEGATIVE_INFINITY)),
      deal_money: decimal,
      deal_stock: decimal,
      amount: decimal,
      left: decimal,
      deal_fee: decimal,
      price: decimal,
      activation_price: fc.option(decimal, { nil: undefined }),
      postOnly: optionalBool,
      ioc: optionalBool,
      rpi: optionalBool,
      stp: field(fc.constantFrom('no', 'cb', 'cn', 'co', 'cancel_both', 'cancel_new', 'cancel_old', '', undefined), fc.constantFrom('x', 'toString', 3)),
      status: field(fc.constantFrom('NEW', 'FILLED', undefined), fc.constant(2)),
    }),
    fc.array(fc.constantFrom(...Object.keys(ALIASES))),
    fc.array(fc.constantFrom(...Object.keys(ALIASES))),
  )
  .map(([r, renamed, doubled]) => {
    const out: Record<string, unknown> = { ...r };
    // the live spelling instead of, or next to, the contract's (the contract's wins when both are there)
    for (const k of renamed) {
      out[ALIASES[k] as string] = out[k];
      delete out[k];
    }
    for (const k of doubled) out[ALIASES[k] as string] = '7';
    return out;
  });

describe('readOrderRecord (hand-written hot path) agrees with the order schema', () => {
  it('whatever it accepts, the schema accepts with the same domain order', () => {
    let accepted = 0;
    fc.assert(
      fc.property(record, (raw) => {
        const fast = readOrderRecord(raw);
        const slow = wireOrderSchema.safeParse(raw);
        // the one shape the schema takes and the hot path leaves to it: an stp that is an Object.prototype key
        const prototypeStp = typeof raw.stp === 'string' && raw.stp in {};
        if (slow.success && !prototypeStp) expect(fast).toBeDefined();
        if (fast === undefined) return;
        accepted += 1;
        expect(slow.success).toBe(true);
        expect(fast).toEqual(slow.data);
      }),
      { numRuns: 1500 },
    );
    // the generator must reach both sides: records the hot path takes, and odd ones it leaves to the schema
    expect(accepted).toBeGreaterThan(150);
    expect(accepted).toBeLessThan(1350);
  });

  it('takes every well-formed record in both dialects, so the hot path is really used', () => {
    const exchange = { ...valid, order_id: undefined, orderId: 7, client_order_id: undefined, clientOrderId: 'c', deal_fee: undefined, dealFee: '0.1' };
    for (const raw of [
      valid,
      exchange,
      { ...valid, type: 'stop limit', activation_price: '29000', stp: 'cb' },
      { ...valid, client_order_id: null, postOnly: undefined },
    ]) {
      const fast = readOrderRecord(raw);
      expect(fast).toBeDefined();
      expect(fast).toEqual(wireOrderSchema.parse(raw));
    }
  });

  it('a left of -0 beside an amount of 0 is read as itself, as the schema reads it (0 === -0, so the shortcut needs Object.is)', () => {
    for (const [amount, left] of [
      [0, -0],
      [-0, 0],
    ]) {
      const raw = { ...valid, amount, left };
      expect(readOrderRecord(raw)).toEqual(wireOrderSchema.parse(raw));
    }
  });

  it('leaves odd shapes to the schema, which names the wrong field', () => {
    for (const raw of [{ ...valid, price: 'abc' }, { ...valid, side: 'long' }, { ...valid, stp: 'toString' }, '<html>', null, [valid]]) {
      expect(readOrderRecord(raw)).toBeUndefined();
    }
    expect(() => parseOrder({ ...valid, price: 'abc' })).toThrow(/price/);
    expect(parseOrders([valid, { ...valid, order_id: '12' }]).map((o) => o.orderId)).toEqual([1, 12]);
    expect(() => parseOrders([valid, { ...valid, left: true }])).toThrow(/1\.left/);
  });
});
