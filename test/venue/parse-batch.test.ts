import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import type { ExecutedOrder } from '../../src/model/executed-order.js';
import { executedRecord } from '../../src/sim/http/routes-order-batch.js';
import { orderRecord } from '../../src/sim/http/dialect.js';
import { InnerValidationError, MalformedResponseError, RequestValidationError } from '../../src/venue/errors.js';
import { parseBulkResults } from '../../src/venue/parse-bulk.js';
import { parseOrderHistory } from '../../src/venue/parse-executed-order.js';
import type { Dialect } from '../../src/venue/wire.js';

const dialects: Dialect[] = ['contract', 'exchange'];

function order(id: number, clientOrderId: string): ExecutedOrder {
  return {
    orderId: id,
    clientOrderId,
    market: 'BTC_USDT',
    side: 'buy',
    kind: 'limit',
    timestamp: 1700000000.123456,
    amount: D('0.02'),
    price: D('30000.5'),
    left: D('0.005'),
    dealStock: D('0.015'),
    dealMoney: D('450.0075'),
    dealFee: D('0.4500075'),
    postOnly: false,
    ioc: false,
    rpi: false,
    stp: 'no',
    status: 'CANCELED',
    finishedAt: 1700000001.5,
    makerFee: D('0.001'),
    takerFee: D('0.002'),
    feeAsset: 'USDT',
  };
}

/** What one item of a bulk answer can be, and the status the client must make of it. */
type Item = 'placed' | 'other-id' | 'error-30s' | 'error-inner' | 'neither' | 'both' | 'missing';
const expected: Record<Item, string> = {
  placed: 'placed',
  'other-id': 'unknown',
  'error-30s': 'rejected',
  'error-inner': 'rejected',
  neither: 'unknown',
  both: 'unknown',
  missing: 'unknown',
};

describe('parseBulkResults', () => {
  it('maps every item to exactly one result for its order, in order (property, both dialects)', () => {
    const item = fc.constantFrom<Item>('placed', 'other-id', 'error-30s', 'error-inner', 'neither', 'both', 'missing');
    fc.assert(
      fc.property(fc.constantFrom(...dialects), fc.array(item, { minLength: 1, maxLength: 20 }), (dialect, kinds) => {
        // 'missing' items can only be at the end of an answer: trim the answer after the first one
        const cut = kinds.indexOf('missing');
        const ids = kinds.map((_, i) => `o-${i}`);
        const answer = kinds.slice(0, cut === -1 ? kinds.length : cut).map((k, i) => {
          const rec = orderRecord(order(100 + i, k === 'other-id' ? `x-${i}` : ids[i]!), dialect);
          const err = { code: k === 'error-30s' ? 32 : 10, message: 'Validation failed', errors: { amount: ['nope'] } };
          if (k === 'placed' || k === 'other-id') return { result: rec, error: null };
          if (k === 'error-30s' || k === 'error-inner') return { result: null, error: err };
          if (k === 'both') return { result: rec, error: err };
          return { result: null, error: null };
        });
        const results = parseBulkResults(JSON.parse(JSON.stringify(answer)), ids, '/api/v4/order/bulk');
        expect(results).toHaveLength(ids.length);
        results.forEach((r, i) => {
          const k = cut !== -1 && i >= cut ? 'missing' : kinds[i]!;
          expect(r.status, `${i} ${k}`).toBe(expected[k]);
          if (r.status === 'placed') expect(r.order.clientOrderId).toBe(ids[i]);
          if (r.status === 'rejected') {
            expect(r.error).toBeInstanceOf(k === 'error-30s' ? RequestValidationError : InnerValidationError);
            expect(r.error.rejected).toBe(true);
            expect(r.error.venueCode).toBe(k === 'error-30s' ? 32 : 10);
          }
        });
      }),
    );
  });

  it('an answer with more items than orders, or of the wrong shape, is malformed', () => {
    const rec = orderRecord(order(1, 'a'), 'contract');
    expect(() =>
      parseBulkResults(
        [
          { result: rec, error: null },
          { result: rec, error: null },
        ],
        ['a'],
        'bulk',
      ),
    ).toThrow(MalformedResponseError);
    expect(() => parseBulkResults({ result: rec }, ['a'], 'bulk')).toThrow(MalformedResponseError);
    expect(() => parseBulkResults([{ result: { order_id: 'x' }, error: null }], ['a'], 'bulk')).toThrow(MalformedResponseError);
  });

  it('with stopOnFail, orders after a failure that have no item were not processed: rejected, not unknown', () => {
    const rec = orderRecord(order(1, 'a'), 'exchange');
    const r = parseBulkResults(
      [
        { result: rec, error: null },
        { result: null, error: { code: 33, message: 'Validation failed', errors: {} } },
      ],
      ['a', 'b', 'c'],
      'bulk',
      true,
    );
    expect(r.map((x) => x.status)).toEqual(['placed', 'rejected', 'rejected']);
  });
});

describe('parseOrderHistory', () => {
  it.each(dialects)('reads the sim record back exactly (%s spelling), left = amount − dealStock', (dialect) => {
    const o = order(7, 'cid-7');
    const wire = JSON.parse(JSON.stringify({ BTC_USDT: [executedRecord(o, dialect)] })) as unknown;
    const [back] = parseOrderHistory(wire);
    expect(back).toEqual({ ...o });
    expect(fmt(back!.left)).toBe('0.005');
  });

  it('the live docs example (camelCase, grouped by market, no market field) parses; a flat array too; a wrong shape names the path', () => {
    const doc = {
      BTC_USDT: [
        {
          amount: '0.0009',
          price: '40000',
          type: 'limit',
          id: 4986126152,
          clientOrderId: 'customId11',
          side: 'sell',
          ctime: 1597486960.311311,
          takerFee: '0.001',
          ftime: 1597486960.311332,
          makerFee: '0.001',
          dealFee: '0.041258268',
          dealStock: '0.0009',
          dealMoney: '41.258268',
          postOnly: false,
          ioc: false,
          status: 'CANCELED',
          feeAsset: 'USDT',
          stp: 'no',
          rpi: false,
        },
      ],
    };
    const [o] = parseOrderHistory(doc);
    expect(o).toMatchObject({ orderId: 4986126152, clientOrderId: 'customId11', market: 'BTC_USDT', side: 'sell', status: 'CANCELED', feeAsset: 'USDT' });
    expect(o!.left.isZero()).toBe(true);
    expect(parseOrderHistory([{ ...doc.BTC_USDT[0], market: 'BTC_USDT' }])).toHaveLength(1);
    expect(() => parseOrderHistory({ BTC_USDT: [{ ...doc.BTC_USDT[0], dealStock: 'lots' }] }, 'history')).toThrow(/BTC_USDT\.0\.deal_stock/);
  });
});
