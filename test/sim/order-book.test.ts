import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Side } from '../../src/model/order.js';
import { BookSide } from '../../src/sim/order-book.js';
import type { SimOrder } from '../../src/sim/sim-order.js';

let nextId = 0;
function order(side: Side, ticks: number): SimOrder {
  const cell = { available: 0n, freeze: 0n, main: 0n };
  return {
    id: ++nextId,
    accountId: 'x',
    clientOrderId: '',
    market: 'M',
    side,
    kind: 'limit',
    timestamp: 0,
    amount: D(1),
    price: D(ticks),
    ticks,
    ticksU: BigInt(ticks),
    amountU: 1n,
    leftU: 1n,
    dealMoneyU: 0n,
    dealFeeU: 0n,
    postOnly: false,
    ioc: false,
    rpi: false,
    stp: 'no',
    status: 'NEW',
    lockU: 0n,
    lockCell: cell,
    gainCell: cell,
    state: undefined as never,
    open: true,
  };
}

/** The reference model: every resting order, sorted best price first, then by arrival. */
function expected(side: Side, orders: SimOrder[]): number[] {
  return [...orders].sort((a, b) => (side === 'buy' ? b.ticks - a.ticks : a.ticks - b.ticks) || a.id - b.id).map((o) => o.id);
}

function actual(book: BookSide): number[] {
  const ids: number[] = [];
  for (const level of book.fromBest()) for (let i = level.head; i < level.orders.length; i++) ids.push(level.orders[i]!.id);
  return ids;
}

describe('BookSide', () => {
  it.each(['buy', 'sell'] as const)('%s side: levels stay sorted best-first with FIFO inside a level under adds, removes and takes', (side) => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), ticks: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('takeBest' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const book = new BookSide(side);
        let model: SimOrder[] = [];
        for (const o of ops) {
          if (o.kind === 'add') {
            const x = order(side, o.ticks);
            book.add(x);
            model.push(x);
          } else if (o.kind === 'remove' && model.length > 0) {
            const x = model[o.pick % model.length]!;
            expect(book.remove(x)).toBe(true);
            model = model.filter((m) => m !== x);
          } else if (o.kind === 'takeBest') {
            const level = book.best();
            if (level === undefined) {
              expect(model).toHaveLength(0);
              continue;
            }
            const x = level.front()!;
            expect(x.id).toBe(expected(side, model)[0]);
            level.shift();
            if (level.size === 0) book.dropLevel(level.ticks);
            model = model.filter((m) => m !== x);
          }
          expect(actual(book)).toEqual(expected(side, model));
          expect(book.levelCount).toBe(new Set(model.map((m) => m.ticks)).size);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('removing an order that is not resting reports false', () => {
    const book = new BookSide('buy');
    const a = order('buy', 5);
    book.add(a);
    expect(book.remove(order('buy', 5))).toBe(false);
    expect(book.remove(order('buy', 6))).toBe(false);
    expect(book.remove(a)).toBe(true);
    expect(book.best()).toBeUndefined();
  });

  it('a busy level compacts its consumed prefix and keeps FIFO order', () => {
    const book = new BookSide('sell');
    const orders = Array.from({ length: 200 }, () => order('sell', 7));
    for (const o of orders) book.add(o);
    const level = book.best()!;
    for (let i = 0; i < 150; i++) {
      expect(level.front()).toBe(orders[i]);
      level.shift();
    }
    expect(level.orders.length).toBeLessThan(200);
    expect(level.size).toBe(50);
    expect(actual(book)).toEqual(orders.slice(150).map((o) => o.id));
  });
});
