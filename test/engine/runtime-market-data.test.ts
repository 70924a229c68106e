import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OrderBook } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import { placeLimit, type Intent } from '../../src/strategy/intents.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { LyingVenue, market, quoter, rig } from './market-data-rig.js';

describe('runtime market data: sane books, price band, stale data (virtual time)', () => {
  it('an absurd book does not halt a strategy with a loss limit, and no order is priced from it', async () => {
    const venue = new LyingVenue(market, '30000', '30010');
    const mm = await loadStrategy(builtinStrategies, 'market-maker');
    const params = { spread: '0.001', size: '0.01', levels: 1, maxInventory: '1', postOnly: false };
    const r = rig(venue, [{ id: 'mm', definition: mm, params, market: market.name, risk: { maxLoss: D('5') } }]);
    await r.runtime.start();
    await r.advance(500);
    const bid = [...venue.orders.values()].find((o) => o.side === 'buy')!;
    venue.fill(bid.clientOrderId, D('0.01'), r.scheduler.now() / 1000); // long 0.01 at ~29990
    await r.advance(500);
    expect(r.of('fill')).toHaveLength(1);

    // the best ask 0.01 under a bid of 30,000, for 6 s: a mark of ~15,000 would be a loss of ~150
    venue.setBook('30000', '0.01');
    await r.advance(6_000);
    // two polls at a tenth of the price (a mark of ~3,000: a loss of ~270), shorter than a confirmation
    venue.setBook('30005', '30015');
    await r.advance(300);
    venue.setBook('3000', '3001');
    await r.advance(200);
    venue.setBook('30005', '30015');
    await r.advance(1_000);

    expect(r.of('risk-halt')).toEqual([]);
    const s = r.runtime.status().markets[0]!;
    expect(s.strategies[0]).toMatchObject({ halted: false, fills: 1 });
    expect(s.mid?.toFixed()).toBe('30010');
    const held = r.of('book-held');
    expect(held.filter((h) => h.reason === 'crossed').length).toBeGreaterThanOrEqual(55);
    expect(held.filter((h) => h.reason === 'jump').map((h) => h.heldPolls)).toEqual([1, 2]);
    // every order that reached the venue is within 5 % of 30,000 (the band; the market maker quotes 0.05 % off)
    expect(venue.placedPrices().length).toBeGreaterThan(2);
    for (const p of venue.placedPrices()) expect(Math.abs(Number(p) / 30_000 - 1)).toBeLessThan(0.05);
    await r.runtime.stop();
  });

  it('stale data (503 for 60 s) cancels the resting quotes and refuses places; fresh data lets the strategy quote again', async () => {
    const venue = new LyingVenue(market, '30000', '30010');
    const r = rig(venue, [{ id: 'q', definition: quoter(), params: {}, market: market.name }]);
    await r.runtime.start();
    await r.advance(500);
    expect(venue.orders.size).toBe(2);
    const downAt = r.scheduler.now();
    venue.down = true;
    await r.advance(4_800);
    expect(r.of('stale')).toEqual([]);
    await r.advance(400);
    // default stale time: max(3 × 100 ms, 5 s)
    const [stale] = r.of('stale');
    expect(stale).toMatchObject({ market: market.name, stale: true, canceled: 2 });
    expect(stale!.at - downAt).toBeGreaterThanOrEqual(5_000);
    expect(stale!.at - downAt).toBeLessThanOrEqual(5_100);
    expect(venue.orders.size).toBe(0);
    expect(r.of('canceled')).toHaveLength(2);
    // its orders gone, the strategy asks again at once: refused, nothing sent
    const refused = r.of('rejected');
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(new Set(refused.map((e) => `${e.stage} ${e.reason}`))).toEqual(new Set(['risk stale-data']));
    const placesWhileStale = venue.calls.filter((c) => c.startsWith('place')).length;
    await r.advance(55_000);
    expect(venue.calls.filter((c) => c.startsWith('place')).length).toBe(placesWhileStale);
    expect(r.of('stale')).toHaveLength(1);

    venue.down = false;
    await r.advance(31_000); // the poll's backoff reaches 30 s after a minute of failures
    expect(r.of('stale').map((e) => e.stale)).toEqual([true, false]);
    expect(venue.orders.size).toBe(2);
    expect(r.runtime.status().markets[0]!.strategies[0]).toMatchObject({ halted: false, paused: false, liveOrders: 2 });
    await r.runtime.stop();
  });

  it('a frozen book (the same snapshot again and again) and a held book are not fresh: both go stale', async () => {
    const seen: OrderBook[] = [];
    const venue = new LyingVenue(market, '30000', '30010');
    const r = rig(venue, [{ id: 'q', definition: quoter(seen), params: {}, market: market.name }], { staleAfterMs: 2_000 });
    await r.runtime.start();
    await r.advance(500);
    venue.frozen = true;
    await r.advance(2_600);
    expect(r.of('stale').map((e) => [e.stale, e.canceled])).toEqual([[true, 2]]);
    // the strategy does not see the frozen repeats while stale (it would only re-quote into refusals)
    const seenWhenStale = seen.length;
    await r.advance(1_000);
    expect(seen.length).toBe(seenWhenStale);
    expect(r.of('rejected').length).toBeGreaterThanOrEqual(2);
    expect(new Set(r.of('rejected').map((e) => e.reason))).toEqual(new Set(['stale-data']));

    venue.frozen = false;
    await r.advance(300);
    expect(r.of('stale').map((e) => e.stale)).toEqual([true, false]);
    expect(venue.orders.size).toBe(2);

    venue.setBook('30000', '0.01'); // crossed: held, every poll
    await r.advance(2_500);
    expect(r.of('stale').map((e) => e.stale)).toEqual([true, false, true]);
    expect(venue.orders.size).toBe(0);
    venue.setBook('30002', '30012');
    await r.advance(300);
    expect(r.of('stale').map((e) => e.stale)).toEqual([true, false, true, false]);
    expect(venue.orders.size).toBe(2);
    await r.runtime.stop();
  });

  it('orders outside the band are refused before sending, for a strategy that prices from elsewhere', async () => {
    const venue = new LyingVenue(market, '30000', '30010');
    const wild = defineStrategy({
      name: 'wild',
      params: z.object({}),
      create: (ctx) =>
        new Observable<Intent>((sub) =>
          ctx.book$.subscribe(() => {
            sub.next(placeLimit({ side: 'sell', price: D('300000'), amount: D('0.01') }));
            sub.complete();
          }),
        ),
    });
    const r = rig(venue, [
      { id: 'w', definition: wild, params: {}, market: market.name },
      { id: 'off', definition: wild, params: {}, market: market.name, risk: { maxDeviation: false } },
    ]);
    await r.runtime.start();
    await r.advance(300);
    expect(r.of('rejected').map((e) => [e.strategyId, e.reason])).toEqual([['w', 'risk:price-band']]);
    expect(venue.placedPrices()).toEqual(['300000']); // the one with the band off
    await r.runtime.stop();
  });
});
