import { Observable, combineLatest } from 'rxjs';
import { z } from 'zod';
import type { PollingOptions, RuntimeStrategy } from '../../src/engine/runtime.js';
import type { OrderBook } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import { placeLimit, type Intent } from '../../src/strategy/intents.js';
import { UnavailableError } from '../../src/venue/errors.js';
import { FakeVenue } from './fake-venue.js';
import { market, virtualRig } from './virtual-rig.js';

// The runtime on virtual time against a fake venue whose book can lie, freeze or fail: for the market-data tests
// (sane books, price band, stale data) of the engine and of the ops surface.

export { market };

/**
 * The fake venue with a book that moves on (a new timestamp every poll, as a live venue's would), which can answer
 * 503 for a while (`down`) or serve the same snapshot again and again (`frozen`).
 */
export class LyingVenue extends FakeVenue {
  down = false;
  frozen = false;
  polls = 0;
  override async orderBook(): Promise<OrderBook> {
    this.calls.push('orderBook');
    if (this.down) throw new UnavailableError('Service Unavailable', { endpoint: '/api/v4/public/orderbook', status: 503 });
    this.polls += 1;
    return this.frozen ? this.book : { ...this.book, timestamp: this.polls };
  }
  setBook(bid: string, ask: string): void {
    this.book = FakeVenue.bookAt(market.name, bid, ask);
  }
  placedPrices(): string[] {
    return [...this.placed].map((id) => this.prices.get(id)!);
  }
  private readonly placed = new Set<string>();
  private readonly prices = new Map<string, string>();
  override async placeLimit(r: Parameters<FakeVenue['placeLimit']>[0]) {
    const o = await super.placeLimit(r);
    this.placed.add(o.clientOrderId);
    this.prices.set(o.clientOrderId, o.price.toFixed());
    return o;
  }
}

/** The shared rig with the runtime's own stale default (these tests are about stale and lying books). */
export function rig(venue: LyingVenue, strategies: RuntimeStrategy[], polling: Partial<PollingOptions> = {}) {
  return virtualRig(venue, strategies, { polling: { staleAfterMs: undefined, ...polling } });
}

/**
 * Quotes a bid and an ask 0.1 % around the mid whenever it has none, on every book and every change of its orders:
 * so it asks to place again as soon as its quotes are cancelled, whether or not a book came.
 */
export function quoter(seen: OrderBook[] = []) {
  return defineStrategy({
    name: 'quoter',
    params: z.object({}),
    create: (ctx) =>
      new Observable<Intent>((sub) =>
        combineLatest([ctx.book$, ctx.orders$]).subscribe(([book, orders]) => {
          if (seen[seen.length - 1] !== book) seen.push(book);
          if (orders.length > 0) return;
          const mid = book.bids[0]!.price.plus(book.asks[0]!.price).div(2);
          sub.next(placeLimit({ side: 'buy', price: mid.times('0.999'), amount: D('0.01'), tag: 'bid' }));
          sub.next(placeLimit({ side: 'sell', price: mid.times('1.001'), amount: D('0.01'), tag: 'ask' }));
        }),
      ),
  });
}
