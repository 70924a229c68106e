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

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('clock' as const), by: fc.integer({ min: -30, max: 200 }) }),
  fc.record({ op: fc.constant('track' as const), state: fc.option(fc.constantFrom(...STATES), { nil: undefined }) }),
  fc.record({ op: fc.constant('move' as const), pick: fc.nat(), to: fc.constantFrom(...STATES) }),
  fc.record({ op: fc.constant('deal' as const), pick: fc.nat(), amount: fc.constantFrom('0.5', '1') }),
  fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('prune' as const), age: fc.integer({ min: 0, max: 300 }) }),
);

describe('OrderTracker.prune', () => {
  it('property (seeded): keeps exactly the live orders and the finished ones changed at or after the cut-off, as a walk over every order does', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
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
            const o = { clientOrderId: id, strategyId: 's', market: 'BTC_USDT', side: 'buy' as const, kind: 'limit' as const, price: D('100'), amount: D('1') };
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
            const expected = t
              .all()
              .filter((o) => isLive(o.state) || !(o.updatedAt < before))
              .map((o) => o.clientOrderId);
            t.prune(before);
            expect(t.all().map((o) => o.clientOrderId)).toEqual(expected);
          }
        }
      }),
      { seed: 33, numRuns: 3000 },
    );
  });
});
