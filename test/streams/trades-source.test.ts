import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { PublicTrade } from '../../src/model/book.js';
import { tradesSource } from '../../src/streams/trades-source.js';
import { tradeFixture } from '../../src/strategy/testing.js';
import { advanceTo, record } from './virtual-time.js';

const trade = (id: number): PublicTrade => tradeFixture({ id, time: id * 1000, price: '100' });

describe('tradesSource', () => {
  it('gives each trade of the overlapping recent-trades pages once, oldest first, polling on the scheduler', async () => {
    const scheduler = new TestScheduler(() => undefined);
    // what the venue lists at each poll: its newest trades first
    const pages = [
      [3, 2, 1],
      [5, 4, 3, 2],
      [5, 4],
      [8, 7, 6, 5],
    ].map((ids) => ids.map(trade));
    const asked: number[] = [];
    let poll = 0;
    const fetch = (market: string) => {
      asked.push(scheduler.now());
      expect(market).toBe('BTC_USDT');
      return Promise.resolve(pages[Math.min(poll++, pages.length - 1)]!);
    };
    const out = record(scheduler, tradesSource(fetch, 'BTC_USDT', { periodMs: 1000 }, scheduler));
    await advanceTo(scheduler, 3000);
    out.stop();
    expect(out.values.map(([at, t]) => [at, t.id])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [1000, 4],
      [1000, 5],
      [3000, 6],
      [3000, 7],
      [3000, 8],
    ]);
    expect(asked).toEqual([0, 1000, 2000, 3000]);
  });

  it('says when a full page is newer than every trade seen (trades may be missing), and goes on after a failed poll', async () => {
    const scheduler = new TestScheduler(() => undefined);
    const full = (from: number) => Array.from({ length: 100 }, (_, i) => trade(from + 99 - i));
    const answers: Array<PublicTrade[] | Error> = [full(1), new Error('boom'), full(500)];
    let gaps = 0;
    const errors: string[] = [];
    const fetch = () => {
      const a = answers.shift() ?? [];
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    };
    const out = record(
      scheduler,
      tradesSource(fetch, 'BTC_USDT', { periodMs: 1000, onGap: () => (gaps += 1), onError: (e) => errors.push((e as Error).message) }, scheduler),
    );
    await advanceTo(scheduler, 5000);
    out.stop();
    expect(out.values).toHaveLength(200);
    expect(errors).toEqual(['boom']);
    expect(gaps).toBe(1);
  });
});
