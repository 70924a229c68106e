import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { poll } from '../../src/streams/poll.js';

/** A fetch that records the time of each call and answers `n` after `takesMs` (0: at once) on `setTimeout`. */
function timedFetch(now: () => number, takesMs: (n: number) => number) {
  const at: number[] = [];
  const fetch = (): Promise<number> => {
    const n = at.length;
    at.push(now());
    const ms = takesMs(n);
    return ms === 0 ? Promise.resolve(n) : new Promise((resolve) => setTimeout(() => resolve(n), ms));
  };
  return { fetch, at };
}

describe('poll reschedules its one timer action (RxJS recursive scheduling), at the same times as a new one', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('live (asyncScheduler on timers): every period from the start of the last call, a slow call delays the next, nothing left after unsubscribe', async () => {
    vi.useFakeTimers();
    const t0 = Date.now();
    const f = timedFetch(
      () => Date.now() - t0,
      (n) => (n === 2 ? 1500 : n === 3 ? 300 : 0),
    );
    const seen: number[] = [];
    const sub = poll(f.fetch, { periodMs: 1000, scheduler: asyncScheduler }).subscribe((v) => seen.push(v));
    await vi.advanceTimersByTimeAsync(6500);
    // call 2 took 1.5 s: call 3 starts when it answers, on a 0 ms timer (setInterval's least is 1 ms: 3501, as with a
    // new action per call); call 3 took 0.3 s: call 4 a period after its start
    expect(f.at).toEqual([0, 1000, 2000, 3501, 4501, 5501]);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    sub.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.at).toHaveLength(6);
  });

  it('on the stepping scheduler: one action for every period, queued at the same times', async () => {
    const s = new SteppingScheduler(0);
    const schedule = vi.spyOn(s, 'schedule');
    const at: number[] = [];
    const sub = poll(
      () => {
        at.push(s.now());
        return Promise.resolve(at.length);
      },
      { periodMs: 1000, scheduler: s },
    ).subscribe();
    for (let i = 0; i < 5 && s.runNext(); i++) await new Promise((r) => setImmediate(r));
    expect(at).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(schedule).toHaveBeenCalledTimes(1);
    sub.unsubscribe();
    expect(s.pending).toBe(0);
  });
});
