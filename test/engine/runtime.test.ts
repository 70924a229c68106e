import { filter, map, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import type { OwnOrder } from '../../src/strategy/context.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import { placeLimit } from '../../src/strategy/intents.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

describe('runtime on virtual time (fake venue)', () => {
  it('gates intents: rules and risk rejections are events, only valid orders reach the venue, orders$ shows them', async () => {
    const venue = new FakeVenue(market, '100', '101');
    let seen: readonly OwnOrder[] = [];
    const def = strategyOf((_ctx, orders) => {
      seen = orders;
      if (orders.length > 0) return [];
      return [
        placeLimit({ side: 'buy', price: D('99.999'), amount: D('0.5'), tag: 'a' }),
        placeLimit({ side: 'buy', price: D('98'), amount: D('0.0001'), tag: 'tiny' }),
        placeLimit({ side: 'sell', price: D('102'), amount: D('0.5'), tag: 'b' }),
        placeLimit({ side: 'sell', price: D('103'), amount: D('0.5'), tag: 'c' }),
      ];
    });
    const rig = virtualRig(venue, [{ id: 'p', definition: def, params: {}, market: market.name, risk: { maxOpenOrders: 2 } }]);
    await rig.runtime.start();
    await rig.advance(1000);
    const rejected = rig.events.filter((e) => e.type === 'rejected').map((e) => (e.type === 'rejected' ? e.reason : ''));
    expect(rejected).toEqual(['rules:32', 'risk:max-open-orders']);
    expect([...venue.orders.values()].map((o) => [o.side, o.price.toFixed()])).toEqual([
      ['buy', '99.99'],
      ['sell', '102'],
    ]);
    expect(seen.map((o) => [o.tag, o.state])).toEqual([
      ['a', 'open'],
      ['b', 'open'],
    ]);
    // the strategy saw its orders as live, so it never placed them twice
    expect(venue.calls.filter((c) => c.startsWith('place'))).toHaveLength(2);
    const summary = await rig.runtime.stop();
    expect(venue.orders.size).toBe(0);
    expect(summary.rejections).toEqual({ 'rules:32': 1, 'risk:max-open-orders': 1 });
  });

  it('learns fills from deals once, and the loss limit halts the strategy and cancels its orders', async () => {
    const venue = new FakeVenue(market, '100', '101');
    const def = strategyOf((_ctx, orders) =>
      orders.length > 0
        ? []
        : [placeLimit({ side: 'buy', price: D('99'), amount: D('1'), tag: 'bid' }), placeLimit({ side: 'sell', price: D('105'), amount: D('1'), tag: 'ask' })],
    );
    const rig = virtualRig(venue, [{ id: 'p', definition: def, params: {}, market: market.name, risk: { maxLoss: D('5') } }]);
    await rig.runtime.start();
    await rig.advance(500);
    const bid = [...venue.orders.values()].find((o) => o.side === 'buy')!;
    venue.fill(bid.clientOrderId, D('1'), rig.scheduler.now() / 1000);
    await rig.advance(1000);
    expect(rig.events.filter((e) => e.type === 'fill')).toHaveLength(1);
    expect(rig.runtime.status().markets[0]!.strategies[0]!.inventory.toFixed()).toBe('1');
    expect(rig.runtime.status().markets[0]!.strategies[0]!.halted).toBe(false);

    venue.book = FakeVenue.bookAt(market.name, '90', '92'); // mid 91: unrealised −8, fees 0.099 → net below −5
    await rig.advance(1000);
    expect(rig.events.some((e) => e.type === 'risk-halt')).toBe(true);
    expect(venue.orders.size).toBe(0);
    expect(rig.runtime.status().markets[0]!.strategies[0]!.halted).toBe(true);
    const placesAfterHalt = venue.calls.filter((c) => c.startsWith('place')).length;
    await rig.advance(1000);
    expect(venue.calls.filter((c) => c.startsWith('place')).length).toBe(placesAfterHalt);
    const summary = await rig.runtime.stop();
    expect(summary.strategies[0]).toMatchObject({ fills: 1, halted: true });
    expect(summary.strategies[0]!.fees.toFixed()).toBe('0.099');
    expect(rig.journal.records().filter((r) => r.type === 'fill')).toHaveLength(1);
  });

  it('on start replays the journal: adopts its open orders with their tags, settles what vanished, never resubmits', async () => {
    const venue = new FakeVenue(market, '100', '101');
    const old = await venue.placeLimit({ market: market.name, side: 'buy', price: D('95'), amount: D('1'), clientOrderId: 'p-a1-1' });
    venue.calls.length = 0;
    const order = { market: market.name, side: 'buy' as const, type: 'limit' as const, price: '95', amount: '1' };
    const previous: JournalRecord[] = [
      { t: 1, type: 'start', run: 0, strategies: ['p'], dryRun: false },
      { t: 2, type: 'submit', strategyId: 'p', clientOrderId: 'p-a1-1', order, tag: 'keep' },
      { t: 3, type: 'outcome', strategyId: 'p', clientOrderId: 'p-a1-1', state: 'open', orderId: old.orderId, left: '1' },
      { t: 4, type: 'submit', strategyId: 'p', clientOrderId: 'p-a1-2', order: { ...order, price: '94' }, tag: 'lost' },
    ];
    const firstOrders: (readonly OwnOrder[])[] = [];
    const def = defineStrategy({
      name: 'watch',
      params: z.object({}),
      create: (ctx) =>
        ctx.orders$.pipe(
          take(1),
          map((o) => firstOrders.push(o)),
          filter(() => false),
          map(() => placeLimit({ side: 'buy', price: D(1), amount: D(1) })),
        ),
    });
    const rig = virtualRig(venue, [{ id: 'p', definition: def, params: {}, market: market.name }], { journal: new MemoryJournal(previous) });
    await rig.runtime.start();
    await rig.advance(200);
    // the submission with no outcome may still reach the venue: live (pending) until its not-placed window passed
    expect(firstOrders[0]?.map((o) => [o.clientOrderId, o.tag, o.state])).toEqual([
      ['p-a1-1', 'keep', 'open'],
      ['p-a1-2', 'lost', 'pending'],
    ]);
    const reconciled = () => rig.events.filter((e) => e.type === 'reconciled').map((e) => (e.type === 'reconciled' ? [e.clientOrderId, e.state] : []));
    expect(reconciled()).not.toContainEqual(['p-a1-2', 'rejected']);
    await rig.advance(7_000);
    expect(reconciled()).toContainEqual(['p-a1-2', 'rejected']);
    expect(venue.calls.filter((c) => c.startsWith('place'))).toHaveLength(0);
    await rig.runtime.stop({ cancelOpenOrders: false });
    expect(venue.orders.size).toBe(1);
  });
});
