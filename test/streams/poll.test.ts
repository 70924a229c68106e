import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/model/backoff.js';
import { poll } from '../../src/streams/poll.js';
import { advanceTo, record } from './virtual-time.js';

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

/** A fetch whose n-th call (0-based) resolves to n, rejects when `fails(n)`, and optionally waits for a release. */
function counter(fails: (n: number) => boolean = () => false) {
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const fetch = () => {
    const n = calls++;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return Promise.resolve().then(() => {
      inFlight -= 1;
      if (fails(n)) throw new Error(`boom ${n}`);
      return n;
    });
  };
  return { fetch, calls: () => calls, maxInFlight: () => maxInFlight };
}

describe('poll', () => {
  it('calls at subscription and then every period, on the scheduler', async () => {
    const scheduler = newScheduler();
    const c = counter();
    const r = record(scheduler, poll(c.fetch, { periodMs: 1000, scheduler }));
    await advanceTo(scheduler, 3500);
    expect(r.values).toEqual([
      [0, 0],
      [1000, 1],
      [2000, 2],
      [3000, 3],
    ]);
    r.stop();
    await advanceTo(scheduler, 10_000);
    expect(c.calls()).toBe(4);
  });

  it('never overlaps calls: a slow call delays the next one instead of stacking', async () => {
    const scheduler = newScheduler();
    let calls = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const releases: Array<() => void> = [];
    const fetch = () =>
      new Promise<number>((resolve) => {
        const n = calls++;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        releases.push(() => {
          inFlight -= 1;
          resolve(n);
        });
      });
    const r = record(scheduler, poll(fetch, { periodMs: 1000, scheduler }));
    await advanceTo(scheduler, 2500); // the first call hangs for 2.5 s
    expect(calls).toBe(1);
    releases.shift()!();
    await advanceTo(scheduler, 2500);
    expect(r.values).toEqual([[2500, 0]]);
    expect(calls).toBe(2); // the late call is followed at once (it was due at 1000)
    releases.shift()!();
    await advanceTo(scheduler, 3000);
    expect(calls).toBe(2);
    await advanceTo(scheduler, 3500);
    expect(calls).toBe(3); // back on the period: 2500 + 1000
    expect(maxInFlight).toBe(1);
    r.stop();
  });

  it('retries failures with exponential backoff, reports them, never errors, and resumes the period', async () => {
    const scheduler = newScheduler();
    const c = counter((n) => n >= 1 && n <= 3); // calls 1, 2, 3 fail
    const reported: Array<[number, number, number]> = [];
    const r = record(
      scheduler,
      poll(c.fetch, {
        periodMs: 1000,
        scheduler,
        backoff: { baseMs: 500, maxMs: 1500, factor: 2 },
        onError: (_e, attempt, retryInMs) => reported.push([scheduler.now(), attempt, retryInMs]),
      }),
    );
    await advanceTo(scheduler, 10_000);
    // 0 ok at 0; 1 fails at 1000 (retry +500); 2 fails at 1500 (+1000); 3 fails at 2500 (+1500 cap); 4 ok at 4000; then every 1000.
    expect(reported).toEqual([
      [1000, 1, 500],
      [1500, 2, 1000],
      [2500, 3, 1500],
    ]);
    expect(r.values.slice(0, 4)).toEqual([
      [0, 0],
      [4000, 4],
      [5000, 5],
      [6000, 6],
    ]);
    expect(r.errors).toEqual([]);
    r.stop();
  });

  it('survives a fetch that throws synchronously and an onError that throws', async () => {
    const scheduler = newScheduler();
    let n = 0;
    const fetch = (): Promise<number> => {
      n += 1;
      if (n === 1) throw new Error('sync');
      return Promise.resolve(n);
    };
    const r = record(
      scheduler,
      poll(fetch, {
        periodMs: 100,
        scheduler,
        backoff: { baseMs: 50, maxMs: 50, factor: 1 },
        onError: () => {
          throw new Error('x');
        },
      }),
    );
    await advanceTo(scheduler, 160);
    expect(r.values).toEqual([
      [50, 2],
      [150, 3],
    ]);
    r.stop();
  });

  it('ignores a result that arrives after unsubscription', async () => {
    const scheduler = newScheduler();
    let release: (v: number) => void = () => {};
    const r = record(
      scheduler,
      poll(() => new Promise<number>((res) => (release = res)), { periodMs: 100, scheduler }),
    );
    await advanceTo(scheduler, 0);
    r.stop();
    release(1);
    await advanceTo(scheduler, 500);
    expect(r.values).toEqual([]);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('rejects bad options and computes capped delays', () => {
    const scheduler = newScheduler();
    expect(() => poll(() => Promise.resolve(1), { periodMs: 0, scheduler })).toThrow(/periodMs/);
    expect(() => poll(() => Promise.resolve(1), { periodMs: 10, scheduler, backoff: { baseMs: 10, maxMs: 5, factor: 2 } })).toThrow(/backoff/);
    // poll's default is the one policy's, which is what poll computed on its own before: 1 s doubling to 30 s
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffDelay(a))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
