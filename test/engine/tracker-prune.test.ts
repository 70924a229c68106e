import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { OrderState } from '../../src/strategy/context.js';
import { isLive, OrderTracker } from '../../src/engine/order-tracker.js';
import { testDeal } from '../helpers/deal.js';

/** One step of a tracker's life: the clock moves (back too: a live daemon's wall clock may), orders come and change, prune runs. */
type Step =
  | { readonly op: 'clock'; readonly by: number }
  | { readonly op: 'track'; readonly state: OrderState | undefined }
  | { readonly op: 'move'; readonly pick: number; readonly to: OrderState }
  | { readonly op: 'deal'; readonly pick: number; readonly amount: string }
  | { readonly op: 'cancel'; readonly pick: number }
  | { readonly op: 'prune'; readonly age: number };

const STATES: OrderState[] = ['pending', 'open', 'partially-filled', 'filled', 'canceled', 'rejected', 'unknown'];

const steps = (back: number): fc.Arbitrary<Step[]> => fc.array(stepOf(back), { maxLength: 80 });
const stepOf = (back: number): fc.Arbitrary<Step> =>
  fc.oneof(
    fc.record({ op: fc.constant('clock' as const), by: fc.integer({ min: -back, max: 200 }) }),
    fc.record({ op: fc.constant('track' as const), state: fc.option(fc.constantFrom(...STATES), { nil: undefined }) }),
    fc.record({ op: fc.constant('move' as const), pick: fc.nat(), to: fc.constantFrom(...STATES) }),
    fc.record({ op: fc.constant('deal' as const), pick: fc.nat(), amount: fc.constantFrom('0.5', '1') }),
    fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('prune' as const), age: fc.integer({ min: 0, max: 300 }) }),
  );

/** A plain buy order of the test's market, under the given client order id. */
const order = (id: string) => ({
  clientOrderId: id,
  strategyId: 's',
  market: 'BTC_USDT',
  side: 'buy' as const,
  kind: 'limit' as const,
  price: D('100'),
  amount: D('1'),
});

/** What a walk over every order keeps at a prune with this cut-off: the live ones and those changed at or after it. */
const keptByWalk = (t: OrderTracker, before: number): string[] =>
  t
    .all()
    .filter((o) => isLive(o.state) || !(o.updatedAt < before))
    .map((o) => o.clientOrderId);

describe('OrderTracker.prune', () => {
  it.each([
    ['a clock that only goes forward', 0],
    ['a clock that may step back a little', 30],
    ['a clock that may step back past the cut-off', 400],
  ])(
    'property (seeded): keeps exactly the live orders and the finished ones changed at or after the cut-off, as a walk over every order does (%s)',
    (_, back) => {
      fc.assert(
        fc.property(steps(back), (steps) => {
          let time = 1000;
          const t = new OrderTracker({ now: () => time });
          const ids: string[] = [];
          let dealId = 0;
          for (const s of steps) {
            const pick = (n: number): string | undefined => (ids.length === 0 ? undefined : ids[n % ids.length]);
            if (s.op === 'clock') time += s.by;
            else if (s.op === 'track') {
              const id = `o-${ids.length}`;
              ids.push(id);
              const o = order(id);
              if (s.state === undefined) t.track(o);
              else t.track(o, { state: s.state });
            } else if (s.op === 'move') {
              const id = pick(s.pick);
              if (id !== undefined) t.move(id, s.to);
            } else if (s.op === 'deal') {
              const id = pick(s.pick);
              if (id !== undefined) t.applyDeal(testDeal((dealId += 1), s.amount, { clientOrderId: id }));
            } else if (s.op === 'cancel') {
              const id = pick(s.pick);
              if (id !== undefined && !t.requestCancel(id)) t.clearCancel(id);
            } else {
              const before = time - s.age;
              // the slow path's answer, from the same orders: every order but the finished ones changed before the cut-off
              const expected = keptByWalk(t, before);
              t.prune(before);
              expect(t.all().map((o) => o.clientOrderId)).toEqual(expected);
            }
          }
        }),
        { seed: 33, numRuns: 3000 },
      );
    },
  );

  it('drops an order finished after the clock stepped back, behind one finished earlier at a later time', () => {
    let time = 1000;
    const t = new OrderTracker({ now: () => time });
    t.track(order('a'), { state: 'canceled' });
    time = 700;
    t.track(order('b'), { state: 'canceled' });
    time = 900;
    t.prune(800);
    expect(t.all().map((o) => o.clientOrderId)).toEqual(['a']);
  });

  it('keeps dropping exactly what the walk drops over a long day (thousands of orders, the queue cut down as it goes)', () => {
    let time = 0;
    const t = new OrderTracker({ now: () => time });
    for (let i = 0; i < 6000; i++) {
      time += 1 + (i % 7);
      const id = `o-${i}`;
      t.track(order(id));
      if (i % 3 !== 0) t.move(id, i % 2 === 0 ? 'canceled' : 'open');
      // a cancelled order touched again later (a second answer) moves its time on
      if (i % 5 === 0 && i > 10) t.move(`o-${i - 10}`, 'canceled');
      if (i % 50 === 0) {
        const before = time - 400;
        const expected = keptByWalk(t, before);
        t.prune(before);
        expect(t.all().map((o) => o.clientOrderId)).toEqual(expected);
      }
    }
    expect(t.all().length).toBeLessThan(4000);
  });
});
