import { pino } from 'pino';
import { Observable, VirtualAction, VirtualTimeScheduler, combineLatest } from 'rxjs';
import { z } from 'zod';
import type { EngineEvent } from '../../src/engine/events.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import { createRuntime, type PollingOptions, type RuntimeStrategy } from '../../src/engine/runtime.js';
import type { OrderBook } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import { placeLimit, type Intent } from '../../src/strategy/intents.js';
import { marketFixture } from '../../src/strategy/testing.js';
import { UnavailableError } from '../../src/venue/errors.js';
import { FakeVenue } from './fake-venue.js';

// The runtime on virtual time against a fake venue whose book can lie, freeze or fail: for the market-data tests
// (sane books, price band, stale data) of the engine and of the ops surface.

export const market = marketFixture({ minAmount: D('0.001'), minTotal: D('1') });

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

export function rig(venue: LyingVenue, strategies: RuntimeStrategy[], polling: Partial<PollingOptions> = {}) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const events: EngineEvent[] = [];
  const runtime = createRuntime({
    api: venue,
    scheduler,
    clock: { now: () => scheduler.now() },
    logger: pino({ level: 'silent' }),
    markets: new Map([[market.name, market]]),
    strategies,
    polling: { bookMs: 100, balancesMs: 1000, openOrdersMs: 500, dealsMs: 200, ...polling },
    journal: new MemoryJournal(),
  });
  runtime.events$.subscribe((e) => events.push(e));
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      const target = scheduler.now() + 50;
      scheduler.maxFrames = target;
      scheduler.flush();
      scheduler.frame = target;
      await new Promise((r) => setImmediate(r));
    }
  };
  const of = <T extends EngineEvent['type']>(type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  return { runtime, events, of, advance, scheduler };
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

