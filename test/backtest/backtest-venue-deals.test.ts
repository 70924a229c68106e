import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { drive, venueRig } from './venue-rig.js';

describe('BacktestVenue.deals', () => {
  it("property (seeded): every answer is the exchange's own for that query, whatever queries came before", async () => {
    const query = fc.record({
      // few values of each field: a query then often differs from the one before in one field only
      market: fc.constantFrom(undefined, 'BTC_USDT', 'ETH_USDT'),
      clientOrderId: fc.constantFrom(undefined, undefined, 'a-1'),
      offset: fc.constantFrom(undefined, 0, 1),
      limit: fc.constantFrom(undefined, 1, 3, 500),
    });
    const step = fc.oneof(
      query,
      fc.constantFrom('a-1', 'a-2', 'a-3', 'a-4', 'a-5').map((id) => ({ buy: id })),
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { scheduler, venue, exchange } = venueRig({ requestMs: 0, responseMs: 0 });
        for (const s of steps) {
          if ('buy' in s) {
            // a taker buy at the ask: one deal for that client order id (ids may repeat: the second is refused)
            await drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.05'), price: D('100.10'), clientOrderId: s.buy })).catch(
              () => undefined,
            );
            continue;
          }
          const answer = await drive(scheduler, venue.deals(s));
          const own = exchange.deals({ ...s, limit: Math.min(s.limit ?? 100, 100) });
          expect(answer.map((d) => d.id)).toEqual(own.map((d) => d.id));
          if (answer.length > 0) answered += 1;
        }
      }),
      { numRuns: 500, seed: 33 },
    );
    // the answers had deals in them often (a venue that never filled would pass any reuse)
    expect(answered).toBeGreaterThan(100);
  });
});
