import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { defaultStaleAfterMs, detectStale } from '../../src/streams/detect-stale.js';

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('detectStale', () => {
  it('flags a source that stops emitting, and its recovery', () => {
    const scheduler = newScheduler();
    scheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('a 99ms b 499ms c 199ms d 99ms e');
      // b at 100; nothing until c at 600: stale at 100 + 300 = 400, fresh again at 600; d at 800, e at 900.
      const status = source.pipe(detectStale({ staleAfterMs: 300, scheduler }));
      expectObservable(status, '^ 1100ms !').toBe('400ms s 199ms f', {
        s: { stale: true, at: 400, lastFreshAt: 100 },
        f: { stale: false, at: 600, lastFreshAt: 600 },
      });
      expectSubscriptions(source.subscriptions).toBe('^ 1100ms !');
    });
  });

  it('counts repeats of the same freshness key as no news (a book whose timestamp does not move)', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const books = cold('a 99ms a 99ms a 99ms a 99ms b', { a: { timestamp: 1 }, b: { timestamp: 2 } });
      const status = books.pipe(detectStale({ staleAfterMs: 250, scheduler, freshnessKey: (b) => b.timestamp }));
      expectObservable(status).toBe('250ms s 149ms f 249ms t', {
        s: { stale: true, at: 250, lastFreshAt: 0 },
        f: { stale: false, at: 400, lastFreshAt: 400 },
        t: { stale: true, at: 650, lastFreshAt: 400 },
      });
    });
  });

  it('isRepeat compares each value with the previous one, like a freshness key (and wins over one)', () => {
    const scheduler = newScheduler();
    let key = 0;
    scheduler.run(({ cold, expectObservable }) => {
      const books = cold('a 99ms a 99ms a 99ms a 99ms b', { a: { timestamp: 1 }, b: { timestamp: 2 } });
      const status = books.pipe(
        // a key that differs every time: were it used, every book would count as fresh
        detectStale({ staleAfterMs: 250, scheduler, isRepeat: (x, y) => x.timestamp === y.timestamp, freshnessKey: () => (key += 1) }),
      );
      expectObservable(status).toBe('250ms s 149ms f 249ms t', {
        s: { stale: true, at: 250, lastFreshAt: 0 },
        f: { stale: false, at: 400, lastFreshAt: 400 },
        t: { stale: true, at: 650, lastFreshAt: 400 },
      });
    });
  });

  it('goes stale when the source never emits, counted from subscription; completes and errors with the source', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('').pipe(detectStale({ staleAfterMs: 50, scheduler })), '^ 120ms !').toBe('50ms s', {
        s: { stale: true, at: 50, lastFreshAt: 0 },
      });
      expectObservable(cold('10ms |').pipe(detectStale({ staleAfterMs: 50, scheduler }))).toBe('10ms |');
      expectObservable(cold('10ms #').pipe(detectStale({ staleAfterMs: 50, scheduler }))).toBe('10ms #');
    });
  });

  it('waits again on the action that ran, not on a new one from the scheduler each time (a replay checks every few polls)', () => {
    const scheduler = newScheduler();
    let made = 0;
    // the scheduler as the engine hands it over, counting the actions asked of it
    const counting = {
      now: () => scheduler.now(),
      schedule: ((...args: Parameters<TestScheduler['schedule']>) => (made++, scheduler.schedule(...args))) as TestScheduler['schedule'],
    };
    scheduler.run(({ cold, expectObservable }) => {
      // a value every 10 ms for a second, then silence: 20 checks find a fresh value and wait again, the last goes stale
      const source = cold('a 9ms '.repeat(100));
      expectObservable(source.pipe(detectStale({ staleAfterMs: 50, scheduler: counting }))).toBe('1040ms s', {
        s: { stale: true, at: 1040, lastFreshAt: 990 },
      });
    });
    expect(made).toBe(1);
  });

  it("the engine's default stale time: three polls, at least 5 s", () => {
    expect([100, 500, 1000, 1667, 2000, 10_000].map(defaultStaleAfterMs)).toEqual([5000, 5000, 5000, 5001, 6000, 30_000]);
  });

  it('rejects a non-positive threshold', () => {
    expect(() => detectStale({ staleAfterMs: 0, scheduler: newScheduler() })).toThrow(/staleAfterMs/);
  });
});
