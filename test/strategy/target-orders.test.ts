import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Decimal } from '../../src/model/decimal.js';
import type { OrderState, OwnOrder } from '../../src/strategy/context.js';
import { placeLimit, type Intent } from '../../src/strategy/intents.js';
import { ordersToTargets, type DesiredOrder } from '../../src/strategy/target-orders.js';
import { marketFixture, ownOrderFixture } from '../../src/strategy/testing.js';

const STATES: OrderState[] = ['pending', 'open', 'partially-filled', 'filled', 'canceled', 'rejected', 'unknown'];
const LIVE: OrderState[] = ['pending', 'open', 'partially-filled', 'unknown'];

const desiredArb: fc.Arbitrary<DesiredOrder> = fc
  .record({
    side: fc.constantFrom('buy' as const, 'sell' as const),
    price: fc.integer({ min: 95, max: 105 }).map((n) => D(n)),
    amount: fc.integer({ min: 0, max: 3 }).map((n) => D(n)),
    tag: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
    stop: fc.option(fc.integer({ min: 95, max: 105 }), { nil: undefined }),
  })
  .map(({ stop, tag, ...d }) => ({ ...d, ...(tag === undefined ? {} : { tag }), ...(stop === undefined ? {} : { activationPrice: D(stop) }) }));

const liveArb: fc.Arbitrary<OwnOrder[]> = fc
  .array(
    fc.record({
      d: desiredArb,
      state: fc.constantFrom(...STATES),
      cancelRequested: fc.boolean(),
      tag: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
    }),
    { maxLength: 12 },
  )
  .map((rows) =>
    rows.map(({ d, state, cancelRequested, tag }, i) =>
      ownOrderFixture({
        clientOrderId: `o-${i}`,
        side: d.side,
        price: d.price,
        amount: d.amount.plus(1),
        left: d.amount.gt(0) ? d.amount : D(1),
        state,
        cancelRequested,
        ...(tag === undefined ? {} : { tag }),
        ...(d.activationPrice ? { kind: 'stop-limit' as const, activationPrice: d.activationPrice } : {}),
      }),
    ),
  );

/** What the engine would make of the intents: cancelled orders go, placed ones appear as pending. */
function apply(live: readonly OwnOrder[], intents: readonly Intent[]): OwnOrder[] {
  const cancelled = new Set(intents.flatMap((i) => (i.kind === 'cancel' ? [i.clientOrderId] : [])));
  const next = live.filter((o) => !cancelled.has(o.clientOrderId));
  intents.forEach((i, n) => {
    if (i.kind === 'place-limit' || i.kind === 'place-stop-limit') {
      next.push(
        ownOrderFixture({
          clientOrderId: `new-${n}`,
          side: i.side,
          price: i.price,
          amount: i.amount,
          state: 'pending',
          ...(i.tag === undefined ? {} : { tag: i.tag }),
          ...(i.kind === 'place-stop-limit' ? { kind: 'stop-limit' as const, activationPrice: i.activationPrice } : {}),
        }),
      );
    }
  });
  return next;
}

const active = (orders: readonly OwnOrder[]) => orders.filter((o) => LIVE.includes(o.state) && !o.cancelRequested);

describe('ordersToTargets', () => {
  it('places every desired order when nothing is live, with tags and postOnly', () => {
    const intents = ordersToTargets(
      [
        { side: 'buy', price: D('99.5'), amount: D('0.1'), tag: 'bid-0', postOnly: true },
        { side: 'sell', price: D('100.5'), amount: D('0.1'), tag: 'ask-0' },
      ],
      [],
    );
    expect(intents).toEqual([
      { kind: 'place-limit', side: 'buy', price: D('99.5'), amount: D('0.1'), tag: 'bid-0', postOnly: true },
      { kind: 'place-limit', side: 'sell', price: D('100.5'), amount: D('0.1'), tag: 'ask-0' },
    ]);
  });

  it('keeps a matching order, cancels the stale one first, then places', () => {
    const live = [
      ownOrderFixture({ clientOrderId: 'keep', side: 'buy', price: '99', amount: '1' }),
      ownOrderFixture({ clientOrderId: 'stale', side: 'sell', price: '105', amount: '1' }),
    ];
    const intents = ordersToTargets(
      [
        { side: 'buy', price: D(99), amount: D(1) },
        { side: 'sell', price: D(101), amount: D(1) },
      ],
      live,
    );
    expect(intents.map((i) => i.kind)).toEqual(['cancel', 'place-limit']);
    expect(intents[0]).toEqual({ kind: 'cancel', clientOrderId: 'stale' });
  });

  it('counts pending and unknown orders as live: never places twice while one is in flight', () => {
    for (const state of ['pending', 'unknown'] as const) {
      const live = [ownOrderFixture({ clientOrderId: 'x', side: 'buy', price: '99', amount: '1', state })];
      expect(ordersToTargets([{ side: 'buy', price: D(99), amount: D(1) }], live)).toEqual([]);
    }
  });

  it('ignores finished orders and does not cancel an order twice', () => {
    const live = [
      ownOrderFixture({ clientOrderId: 'done', side: 'buy', price: '99', amount: '1', state: 'filled' }),
      ownOrderFixture({ clientOrderId: 'going', side: 'buy', price: '98', amount: '1', cancelRequested: true }),
    ];
    expect(ordersToTargets([], live)).toEqual([]);
  });

  it('matches within the relative price tolerance, and within one price step of the market', () => {
    const live = [ownOrderFixture({ clientOrderId: 'q', side: 'buy', price: '99.90', amount: '1' })];
    const want = [{ side: 'buy' as const, price: D('100'), amount: D(1) }];
    expect(ordersToTargets(want, live)).toHaveLength(2);
    expect(ordersToTargets(want, live, { priceTolerance: D('0.001') })).toEqual([]);
    const unquantized = [{ side: 'buy' as const, price: D('99.9049'), amount: D(1) }];
    expect(ordersToTargets(unquantized, live, { market: marketFixture() })).toEqual([]);
    expect(ordersToTargets(unquantized, live)).toHaveLength(2);
  });

  it('compares the remaining amount: a partial fill is topped up unless the amount tolerance allows it', () => {
    const live = [ownOrderFixture({ clientOrderId: 'p', side: 'sell', price: '101', amount: '1', left: '0.6', state: 'partially-filled' })];
    const want = [{ side: 'sell' as const, price: D(101), amount: D(1) }];
    expect(ordersToTargets(want, live).map((i) => i.kind)).toEqual(['cancel', 'place-limit']);
    expect(ordersToTargets(want, live, { amountTolerance: D('0.5') })).toEqual([]);
  });

  it('respects tags: a desired tag is only matched by a live order with that tag', () => {
    const live = [ownOrderFixture({ clientOrderId: 'g', side: 'buy', price: '99', amount: '1', tag: 'grid-1' })];
    expect(ordersToTargets([{ side: 'buy', price: D(99), amount: D(1), tag: 'grid-2' }], live).map((i) => i.kind)).toEqual(['cancel', 'place-limit']);
    expect(ordersToTargets([{ side: 'buy', price: D(99), amount: D(1) }], live)).toEqual([]);
  });

  it('makes stop-limit orders for desired orders with an activation price', () => {
    const intents = ordersToTargets(
      [{ side: 'sell', price: D(94), amount: D(1), activationPrice: D(95), tag: 'stop' }],
      [ownOrderFixture({ clientOrderId: 'l', side: 'sell', price: '94', amount: '1' })],
    );
    expect(intents).toEqual([
      { kind: 'cancel', clientOrderId: 'l' },
      { kind: 'place-stop-limit', side: 'sell', price: D(94), amount: D(1), activationPrice: D(95), tag: 'stop' },
    ]);
  });

  it('property: applying the intents reaches the desired set, and a second call yields nothing', () => {
    fc.assert(
      fc.property(fc.array(desiredArb, { maxLength: 8 }), liveArb, fc.constantFrom(D(0), D('0.01')), (desired, live, tol) => {
        const opts = { priceTolerance: tol, amountTolerance: tol };
        const intents = ordersToTargets(desired, live, opts);
        const firstPlace = intents.findIndex((i) => i.kind !== 'cancel');
        if (firstPlace >= 0) expect(intents.slice(firstPlace).every((i) => i.kind !== 'cancel')).toBe(true);
        const liveIds = new Set(active(live).map((o) => o.clientOrderId));
        const cancels = intents.flatMap((i) => (i.kind === 'cancel' ? [i.clientOrderId] : []));
        expect(new Set(cancels).size).toBe(cancels.length);
        for (const id of cancels) expect(liveIds.has(id)).toBe(true);
        const next = apply(live, intents);
        const wanted = desired.filter((d) => d.amount.gt(0));
        expect(active(next)).toHaveLength(wanted.length);
        expect(ordersToTargets(desired, next, opts)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('property: with zero tolerance the resting set equals the desired set as a multiset', () => {
    const key = (side: string, price: Decimal, amount: Decimal, tag?: string, act?: Decimal) =>
      `${side}|${price.toFixed()}|${amount.toFixed()}|${tag ?? ''}|${act?.toFixed() ?? ''}`;
    fc.assert(
      fc.property(
        fc.array(
          desiredArb.map((d) => ({ ...d, tag: 'x' })),
          { maxLength: 8 },
        ),
        liveArb,
        (desired, live) => {
          const next = active(apply(live, ordersToTargets(desired, live)));
          const have = next.map((o) => key(o.side, o.price, o.left, o.tag, o.activationPrice)).sort();
          const want = desired
            .filter((d) => d.amount.gt(0))
            .map((d) => key(d.side, d.price, d.amount, d.tag, d.activationPrice))
            .sort();
          expect(have).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ordersToTargets place intents', () => {
  it('are what placeLimit makes of the desired order: the same keys, in the same order, absent ones absent', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
        fc.option(fc.constantFrom('bid-0', 'ask-1'), { nil: undefined }),
        fc.option(fc.boolean(), { nil: undefined }),
        (side, tag, postOnly) => {
          const d: DesiredOrder = {
            side,
            price: D('100.5'),
            amount: D('0.01'),
            ...(tag === undefined ? {} : { tag }),
            ...(postOnly === undefined ? {} : { postOnly }),
          };
          const [intent] = ordersToTargets([d], []);
          const want = placeLimit({
            side,
            price: d.price,
            amount: d.amount,
            ...(tag === undefined ? {} : { tag }),
            ...(postOnly === undefined ? {} : { postOnly }),
          });
          expect(intent).toStrictEqual(want);
          expect(Object.keys(intent!)).toEqual(Object.keys(want));
        },
      ),
    );
  });
});
