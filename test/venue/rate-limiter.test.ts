import { describe, expect, it } from 'vitest';
import { RateLimiter, LimiterClosedError, type LimiterClock } from '../../src/venue/rate-limiter.js';
import { RATE_LIMITS, type RateBucket, type RateLimit } from '../../src/venue/wire.js';

/** A virtual clock: timers fire only when the test advances time. */
class VirtualClock implements LimiterClock {
  t = 0;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];
  now = (): number => this.t;
  setTimer = (ms: number, fn: () => void): (() => void) => {
    const timer = { at: this.t + ms, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  };
  /** Runs timers in time order up to `until`, letting promise chains settle between them. */
  async advanceTo(until: number): Promise<void> {
    for (;;) {
      await flush();
      const due = this.timers.filter((x) => x.live && x.at <= until).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.t = Math.max(this.t, due.at);
      due.live = false;
      due.fn();
    }
    this.t = until;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

const small = (over: Partial<Record<RateBucket, RateLimit>>): Record<RateBucket, RateLimit> => ({ ...RATE_LIMITS, ...over });

function maxInWindow(times: number[], windowMs: number): number {
  const s = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while ((s[i] as number) - (s[j] as number) >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('RateLimiter', () => {
  it('admitNow: admits only with room and nobody waiting; the slot counts until completed, then the window slides', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, marginMs: 0, limits: small({ orderNew: { limit: 2, windowMs: 1000 } }) });
    const a = limiter.admitNow('orderNew');
    const b = limiter.admitNow('orderNew');
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    // full: nothing admitted, and a scheduled request waits for room
    expect(limiter.admitNow('orderNew')).toBeUndefined();
    const started: number[] = [];
    const queued = limiter.schedule('orderNew', async () => void started.push(clock.now()));
    await clock.advanceTo(5000);
    expect(started).toEqual([]); // both slots are still in flight: they count until completed
    clock.t = 6000;
    limiter.completed(a!);
    limiter.completed(b!);
    // somebody waits ahead (the queued request): admitNow keeps FIFO and admits nothing
    expect(limiter.admitNow('orderNew')).toBeUndefined();
    await clock.advanceTo(7000);
    await queued;
    expect(started).toEqual([7000]); // a slot's window starts when it completed (6000), so the queue waits to 7000
    limiter.close();
    expect(() => limiter.admitNow('orderNew')).toThrow(LimiterClosedError);
  });

  it('lets a burst of the allowance through at once, then slides: never more than the limit per window', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, marginMs: 0, limits: small({ orderNew: { limit: 10, windowMs: 1000 } }) });
    const started: number[] = [];
    const all = Array.from({ length: 35 }, () => limiter.schedule('orderNew', async () => void started.push(clock.now())));
    await clock.advanceTo(0);
    expect(started).toHaveLength(10);
    const queued = limiter.stats().find((s) => s.bucket === 'orderNew');
    expect(queued).toMatchObject({ limit: 10, inWindow: 10, queued: 25 });
    await clock.advanceTo(10_000);
    await Promise.all(all);
    expect(started).toHaveLength(35);
    expect(maxInWindow(started, 1000)).toBe(10);
    // full use: 35 requests need exactly 3 more windows after the first burst
    expect(Math.max(...started)).toBe(3000);
    const stats = limiter.stats().find((s) => s.bucket === 'orderNew');
    expect(stats?.waitMsMax).toBe(3000);
    expect(stats?.queued).toBe(0);
  });

  it('counts shared buckets: endpoints of the public group share its overall limit', async () => {
    const clock = new VirtualClock();
    const limits = small({
      public: { limit: 6, windowMs: 1000 },
      ping: { limit: 100, windowMs: 1000, shared: ['public'] },
      orderbook: { limit: 100, windowMs: 1000, shared: ['public'] },
    });
    const limiter = new RateLimiter({ clock, marginMs: 0, limits });
    const times: number[] = [];
    const calls = [
      ...Array.from({ length: 9 }, () => limiter.schedule('ping', async () => void times.push(clock.now()))),
      ...Array.from({ length: 9 }, () => limiter.schedule('orderbook', async () => void times.push(clock.now()))),
    ];
    await clock.advanceTo(5000);
    await Promise.all(calls);
    expect(times).toHaveLength(18);
    expect(maxInWindow(times, 1000)).toBe(6);
    expect(limiter.stats().find((s) => s.bucket === 'public')?.admitted).toBe(18);
  });

  it('holds a slot while the request is in flight (the server may see it any time until the answer)', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, marginMs: 0, limits: small({ orderNew: { limit: 2, windowMs: 1000 } }) });
    const release: (() => void)[] = [];
    const started: number[] = [];
    const slow = (): Promise<void> => limiter.schedule('orderNew', () => new Promise<void>((r) => (started.push(clock.now()), release.push(r))));
    const calls = [slow(), slow(), slow()];
    await clock.advanceTo(5000);
    expect(started).toEqual([0, 0]); // the third waits: the first two have not answered yet
    clock.t = 5000;
    release.shift()?.();
    await clock.advanceTo(5999);
    expect(started).toHaveLength(2);
    await clock.advanceTo(6000);
    expect(started).toEqual([0, 0, 6000]);
    release.splice(0).forEach((r) => r());
    await Promise.all(calls);
  });

  it('pauses an endpoint after a 429 and rejects waiting calls when closed', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, marginMs: 0 });
    limiter.pause('orders', 2000);
    const started: number[] = [];
    const call = limiter.schedule('orders', async () => void started.push(clock.now()));
    await clock.advanceTo(1999);
    expect(started).toEqual([]);
    await clock.advanceTo(2000);
    await call;
    expect(started).toEqual([2000]);
    limiter.pause('orders', 10_000);
    const waiting = limiter.schedule('orders', async () => 1);
    await clock.advanceTo(2100);
    limiter.close();
    await expect(waiting).rejects.toBeInstanceOf(LimiterClosedError);
  });

  it('admits at once when there is room, releases the slot however the task ends, and rejects (never throws) when closed', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, marginMs: 0, limits: small({ orders: { limit: 1, windowMs: 1000 } }) });
    const boom = new Error('boom');
    // a task that throws synchronously: the call rejects and the slot is released (its window starts now)
    const thrown = limiter.schedule('orders', () => {
      throw boom;
    });
    await expect(thrown).rejects.toBe(boom);
    expect(limiter.stats().find((s) => s.bucket === 'orders')).toMatchObject({ inWindow: 1, admitted: 1 });
    const started: number[] = [];
    const next = limiter.schedule('orders', async () => void started.push(clock.now()));
    await clock.advanceTo(999);
    expect(started).toEqual([]);
    await clock.advanceTo(1000);
    await next;
    expect(started).toEqual([1000]);
    // a rejected task: the caller sees the rejection
    await clock.advanceTo(2000);
    await expect(limiter.schedule('orders', () => Promise.reject(boom))).rejects.toBe(boom);
    limiter.close();
    const closed = limiter.schedule('orders', async () => 1);
    expect(closed).toBeInstanceOf(Promise);
    await expect(closed).rejects.toBeInstanceOf(LimiterClosedError);
  });

  it('settles a fast-path call one reaction after its task, as an async wrapper would', async () => {
    const limiter = new RateLimiter({ marginMs: 0 });
    const order: string[] = [];
    let resolveTask!: (v: number) => void;
    const task = new Promise<number>((r) => (resolveTask = r));
    const viaLimiter = limiter.schedule('orders', () => task).then(() => order.push('limiter'));
    const viaAsync = (async () => await task)().then(() => order.push('async wrapper'));
    resolveTask(1);
    await Promise.all([viaLimiter, viaAsync]);
    expect(order).toEqual(['limiter', 'async wrapper']);
  });

  it('rejects a bad margin', () => {
    expect(() => new RateLimiter({ marginMs: -1 })).toThrow(/marginMs/);
  });
});
