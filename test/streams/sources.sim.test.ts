// The sources against the simulated exchange over loopback HTTP with the real client, on the real-time scheduler:
// paging and deal dedupe as the venue actually answers.
import { asyncScheduler, filter, firstValueFrom, map, scan, shareReplay } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { bookSource } from '../../src/streams/book-source.js';
import { dealsSource } from '../../src/streams/deals-source.js';
import { fetchAllOpenOrders } from '../../src/streams/fetch-open-orders.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { simAccount, withSim } from '../helpers/with-sim.js';

const MARKET = 'BTC_USDT';
const clients: RestClient[] = [];
const client = (options: ConstructorParameters<typeof RestClient>[0]) => {
  const c = new RestClient(options);
  clients.push(c);
  return c;
};
afterEach(() => clients.splice(0).forEach((c) => c.close()));

describe('sources against the simulated exchange', () => {
  it('book: a snapshot of the market with the asked depth', async () => {
    await withSim(async (sim) => {
      const api = client({ baseUrl: sim.baseUrl });
      const alice = client({ baseUrl: sim.baseUrl, ...keys(simAccount(sim, true)) });
      await alice.placeLimit({ market: MARKET, side: 'buy', amount: D('0.001'), price: D('20000'), clientOrderId: 'b1' });
      await alice.placeLimit({ market: MARKET, side: 'sell', amount: D('0.001'), price: D('40000'), clientOrderId: 's1' });
      const book = await firstValueFrom(bookSource(api, MARKET, { limit: 5, periodMs: 100 }, asyncScheduler));
      expect(book.market).toBe(MARKET);
      expect(book.bids.length).toBeGreaterThan(0);
      expect(book.asks.length).toBeGreaterThan(0);
      expect(book.bids.length).toBeLessThanOrEqual(5);
      expect(book.bids[0]!.price.lt(book.asks[0]!.price)).toBe(true);
    });
  });

  it('open orders: all of them, across pages', async () => {
    await withSim({ flow: false }, async (sim) => {
      const alice = client({ baseUrl: sim.baseUrl, ...keys(simAccount(sim, true)) });
      for (let i = 0; i < 130; i++) {
        await alice.placeLimit({ market: MARKET, side: 'buy', amount: D('0.001'), price: D(10000 + i), clientOrderId: `oo-${i}` });
      }
      const orders = await fetchAllOpenOrders(alice, MARKET);
      expect(orders).toHaveLength(130);
      expect(new Set(orders.map((o) => o.clientOrderId)).size).toBe(130);
    });
  });

  it('deals: each deal once, oldest first, through a burst bigger than a page and later polls', async () => {
    await withSim({ flow: false }, async (sim) => {
      const alice = client({ baseUrl: sim.baseUrl, ...keys(simAccount(sim, true)) });
      const bob = client({ baseUrl: sim.baseUrl, ...keys(simAccount(sim, false)) });
      const cross = async (i: number) => {
        await alice.placeLimit({ market: MARKET, side: 'sell', amount: D('0.001'), price: D('30000'), clientOrderId: `s-${i}` });
        await bob.placeLimit({ market: MARKET, side: 'buy', amount: D('0.001'), price: D('30000'), clientOrderId: `b-${i}` });
      };
      for (let i = 0; i < 110; i++) await cross(i);

      const seen$ = dealsSource(alice, MARKET, { periodMs: 50 }, asyncScheduler).pipe(
        scan((all, d) => [...all, d], [] as Deal[]),
        shareReplay({ bufferSize: 1, refCount: true }),
      );
      const sub = seen$.subscribe();
      try {
        const first = await firstValueFrom(seen$.pipe(filter((all) => all.length >= 110)));
        expect(first).toHaveLength(110);
        await cross(110);
        const all = await firstValueFrom(
          seen$.pipe(
            filter((a) => a.length >= 111),
            map((a) => a),
          ),
        );
        const ids = all.map((d) => d.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(all[110]!.clientOrderId).toBe('s-110');
        for (let i = 1; i < all.length; i++) expect(all[i]!.time >= all[i - 1]!.time).toBe(true);
        expect(all.map((d) => d.clientOrderId)).toEqual(Array.from({ length: 111 }, (_, i) => `s-${i}`));
        const venue = await alice.deals({ market: MARKET, limit: 100 });
        expect(venue[0]!.id).toBe(all[110]!.id);
      } finally {
        sub.unsubscribe();
      }
    });
  });
});

function keys(account: { apiKey: string; apiSecret: string }) {
  return { apiKey: account.apiKey, apiSecret: account.apiSecret };
}
