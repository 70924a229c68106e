import fc from 'fast-check';
import { pino } from 'pino';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { expiresAt, nextResetDelay, planDeadMan } from '../../src/engine/dead-man-policy.js';
import { DeadManTimer, type DeadManError, type KillSwitchApi } from '../../src/engine/dead-man.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { DEFAULT_SIM_CONFIG } from '../../src/sim/sim-config.js';
import { NetworkError } from '../../src/venue/errors.js';
import { stepVirtual } from './virtual-rig.js';

describe('dead-man refresh policy', () => {
  it('resets every third of the timeout; retries a failure after a quarter of that, 250 ms to 2 s', () => {
    expect(planDeadMan(30)).toEqual({ timeoutSec: 30, periodMs: 10_000, retryMs: 2000 });
    expect(planDeadMan(5)).toEqual({ timeoutSec: 5, periodMs: 1666, retryMs: 416 });
    expect(planDeadMan(600)).toEqual({ timeoutSec: 600, periodMs: 200_000, retryMs: 2000 });
    for (const bad of [4, 601, 0, 5.5, Number.NaN]) expect(() => planDeadMan(bad)).toThrow(ConfigError);
  });

  it('after a success: one period after the attempt started, however slow the answer', () => {
    const plan = planDeadMan(30);
    expect(nextResetDelay(plan, 'ok', 1000, 1000, 1000)).toBe(10_000);
    expect(nextResetDelay(plan, 'ok', 1000, 1000, 4000)).toBe(7000);
    expect(nextResetDelay(plan, 'ok', 1000, 1000, 20_000)).toBe(0);
  });

  it('after a failure: the retry delay, cut short so that the last try before the expiry is not lost', () => {
    const plan = planDeadMan(30);
    expect(nextResetDelay(plan, 'failed', 0, undefined, 0)).toBe(2000);
    expect(nextResetDelay(plan, 'failed', 15_000, 0, 15_000)).toBe(2000);
    expect(nextResetDelay(plan, 'failed', 29_500, 0, 29_500)).toBe(500);
    expect(nextResetDelay(plan, 'failed', 31_000, 0, 31_000)).toBe(2000);
    expect(expiresAt(plan, 5000)).toBe(35_000);
  });

  it('property: after a success, up to 3 failed resets in a row (each answered within the retry delay) still leave a try before the venue timer runs out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 600 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3000 }), (timeoutSec, failures, latency) => {
        const plan = planDeadMan(timeoutSec);
        const armedAt = 0;
        // the next reset starts one period after the success; every attempt takes `latency` (bounded by the retry delay)
        let t = nextResetDelay(plan, 'ok', armedAt, armedAt, Math.min(latency, plan.retryMs));
        for (let i = 0; i < failures; i++) {
          const answeredAt = t + Math.min(latency, plan.retryMs);
          t = answeredAt + nextResetDelay(plan, 'failed', t, armedAt, answeredAt);
        }
        return t < expiresAt(plan, armedAt);
      }),
    );
  });
});

/**
 * The dead-man timer on virtual time against the sim's own kill-switch, in process: the sim runs on the same
 * virtual clock (its tick is driven here), so "the venue's timer never ran out" is the sim's word, not ours.
 */
function rig(timeoutSec = 5) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const T0 = 1_800_000_000_000;
  const ex = new SimExchange(DEFAULT_SIM_CONFIG, () => T0 + scheduler.now());
  const account = 'bob';
  const calls: Array<{ at: number; market: string; timeout: number | null }> = [];
  let down: (at: number) => boolean = () => false;
  const api: KillSwitchApi = {
    async killSwitch(market, timeout) {
      calls.push({ at: scheduler.now(), market, timeout });
      if (down(scheduler.now())) throw new NetworkError('connect ECONNREFUSED 127.0.0.1', { endpoint: '/api/v4/order/kill-switch' });
      const r = ex.killSwitch(account, market, timeout);
      return r === undefined ? null : { ...r, types: [...r.types] };
    },
  };
  const logs: Array<{ level: number; code?: string; msg: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as (typeof logs)[number]) });
  const journal = new MemoryJournal();
  const errors: DeadManError[] = [];
  const deadMan = new DeadManTimer({
    api,
    markets: ['BTC_USDT', 'ETH_USDT', 'BTC_USDT'],
    timeoutSec,
    scheduler,
    logger,
    journal,
    onError: (e) => errors.push(e),
  });
  const advance = (ms: number) => stepVirtual(scheduler, ms, () => ex.tick(T0 + scheduler.now()));
  const quote = () => {
    const r = ex.placeLimit(account, {
      market: 'BTC_USDT',
      side: 'buy',
      amount: D('0.01'),
      price: D('1000'),
      clientOrderId: `q-${calls.length}-${scheduler.now()}`,
    });
    if (!r.ok) throw new Error(r.message);
  };
  const setDown = (f: (at: number) => boolean) => (down = f);
  /** Answers take `ms` of virtual time from now on (the venue acts when the request arrives, at once). */
  const setLatency = (ms: number) => {
    const inner = api.killSwitch.bind(api);
    api.killSwitch = (market, timeout) => {
      const answer = inner(market, timeout);
      return new Promise((resolve, reject) => scheduler.schedule(() => void answer.then(resolve, reject), ms));
    };
  };
  return { scheduler, ex, account, calls, logs, journal, errors, deadMan, advance, quote, setDown, setLatency };
}

const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

describe('DeadManTimer on virtual time against the sim', () => {
  it('arms every market once at start and resets each a third of the timeout apart: the sim never fires', async () => {
    const r = rig(5);
    r.quote();
    await r.deadMan.start();
    expect(r.ex.killSwitchStatus(r.account).map((t) => t.market)).toEqual(['BTC_USDT', 'ETH_USDT']);
    await r.advance(60_000);
    expect(r.ex.killSwitchFirings()).toEqual([]);
    expect(r.ex.openOrders(r.account)).toHaveLength(1);
    const btc = r.calls.filter((c) => c.market === 'BTC_USDT').map((c) => c.at);
    expect(btc.length).toBeGreaterThanOrEqual(35);
    // each reset on the 50 ms grid of the driver, never later than one period plus a step
    for (const g of gaps(btc)) expect(g).toBeLessThanOrEqual(1666 + 50);
    expect(r.calls.every((c) => c.timeout === 5)).toBe(true);
    expect(r.journal.records().filter((x) => x.type === 'deadman')).toEqual([
      expect.objectContaining({ action: 'arm', market: 'BTC_USDT', timeoutSec: 5 }),
      expect.objectContaining({ action: 'arm', market: 'ETH_USDT', timeoutSec: 5 }),
    ]);
    await r.deadMan.stop();
  });

  it('a failed reset is logged as a typed error and retried sooner; a short outage costs no order', async () => {
    const r = rig(5);
    r.quote();
    await r.deadMan.start();
    await r.advance(3000);
    r.setDown((at) => at >= 3000 && at < 6000);
    await r.advance(10_000);
    expect(r.ex.killSwitchFirings()).toEqual([]);
    expect(r.ex.openOrders(r.account)).toHaveLength(1);
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.errors.every((e) => e.code === 'ERR_DEAD_MAN_ARM' && e.cause instanceof NetworkError)).toBe(true);
    expect(r.logs.some((l) => l.level === 40 && l.code === 'ERR_DEAD_MAN_ARM')).toBe(true);
    // retried at the retry delay while down
    const during = r.calls.filter((c) => c.market === 'BTC_USDT' && c.at >= 3000 && c.at < 6000).map((c) => c.at);
    for (const g of gaps(during)) expect(g).toBeLessThanOrEqual(416 + 50);
    await r.deadMan.stop();
  });

  it('an outage longer than the timeout: the sim cancels the orders, the timer reports it once, then re-arms', async () => {
    const r = rig(5);
    r.quote();
    await r.deadMan.start();
    r.setDown((at) => at >= 1000 && at < 9000);
    await r.advance(12_000);
    const firings = r.ex.killSwitchFirings(r.account);
    expect(firings.map((f) => f.market).sort()).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(r.ex.openOrders(r.account)).toEqual([]);
    const expired = r.errors.filter((e) => e.code === 'ERR_DEAD_MAN_EXPIRED');
    expect(expired.map((e) => e.market).sort()).toEqual(['BTC_USDT', 'ETH_USDT']);
    expect(r.logs.filter((l) => l.level === 50 && l.code === 'ERR_DEAD_MAN_EXPIRED')).toHaveLength(2);
    // re-armed once the venue answers again, and journalled as such
    expect(r.ex.killSwitchStatus(r.account)).toHaveLength(2);
    const btc = r.journal
      .records()
      .filter((x) => x.type === 'deadman' && x.market === 'BTC_USDT')
      .map((x) => (x.type === 'deadman' ? x.action : ''));
    expect(btc).toEqual(['arm', 'expired', 'arm']);
    await r.deadMan.stop();
  });

  it('a failing first arm does not throw: start resolves, and the arm is retried until it succeeds', async () => {
    const r = rig(5);
    r.setDown((at) => at < 2000);
    await expect(r.deadMan.start()).resolves.toBeUndefined();
    expect(r.ex.killSwitchStatus(r.account)).toEqual([]);
    await r.advance(3000);
    expect(r.ex.killSwitchStatus(r.account)).toHaveLength(2);
    await r.deadMan.stop();
  });

  it('clear stops the resets and deletes every timer; stop alone leaves them to run out (what a dead daemon does)', async () => {
    const a = rig(5);
    a.quote();
    await a.deadMan.start();
    await a.advance(2000);
    await a.deadMan.clear();
    expect(a.ex.killSwitchStatus(a.account)).toEqual([]);
    const n = a.calls.length;
    await a.advance(20_000);
    expect(a.calls.length).toBe(n);
    expect(a.ex.killSwitchFirings()).toEqual([]);
    expect(a.ex.openOrders(a.account)).toHaveLength(1);
    expect(
      a.journal
        .records()
        .filter((x) => x.type === 'deadman')
        .map((x) => (x.type === 'deadman' ? x.action : '')),
    ).toEqual(['arm', 'arm', 'clear', 'clear']);

    const b = rig(5);
    b.quote();
    await b.deadMan.start();
    await b.advance(2000);
    await b.deadMan.stop();
    await b.advance(6000);
    expect(b.ex.openOrders(b.account)).toEqual([]);
    expect(b.ex.killSwitchFirings(b.account).find((f) => f.market === 'BTC_USDT')?.cancelled).toHaveLength(1);
  });

  it('clear leaves the timers of the markets named armed (orders the stop could not confirm gone): the venue cancels them', async () => {
    const r = rig(5);
    r.quote();
    await r.deadMan.start();
    await r.advance(2000);
    await r.deadMan.clear(new Set(['BTC_USDT']));
    expect(r.ex.killSwitchStatus(r.account).map((k) => k.market)).toEqual(['BTC_USDT']);
    expect(r.logs.some((l) => l.level === 40 && /left armed/.test(l.msg))).toBe(true);
    await r.advance(6000);
    expect(r.ex.openOrders(r.account)).toEqual([]);
    expect(
      r.journal
        .records()
        .filter((x) => x.type === 'deadman')
        .map((x) => (x.type === 'deadman' ? `${x.action} ${x.market}` : '')),
    ).toContain('clear ETH_USDT');
  });

  it('a reset in flight when the clean stop begins lands before the delete, never after it', async () => {
    const r = rig(5);
    r.setLatency(300);
    const started = r.deadMan.start();
    await r.advance(400);
    await started;
    // run until a reset is in flight, then stop cleanly
    await r.advance(1300);
    const inFlightAt = r.calls.at(-1)!.at;
    expect(r.scheduler.now() - inFlightAt).toBeLessThan(300);
    const cleared = r.deadMan.clear();
    await r.advance(2000);
    await cleared;
    const lastSet = Math.max(...r.calls.filter((c) => c.timeout !== null).map((c) => c.at));
    const firstDelete = Math.min(...r.calls.filter((c) => c.timeout === null).map((c) => c.at));
    expect(lastSet).toBeLessThan(firstDelete);
    expect(r.ex.killSwitchStatus(r.account)).toEqual([]);
    await r.advance(10_000);
    expect(r.ex.killSwitchStatus(r.account)).toEqual([]);
  });

  it('a venue call that throws synchronously, or a journal that refuses, is a logged failure, never a crash', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
    const errors: DeadManError[] = [];
    const api: KillSwitchApi = {
      killSwitch() {
        throw new TypeError('boom');
      },
    };
    const journal = new MemoryJournal();
    journal.close();
    const deadMan = new DeadManTimer({
      api,
      markets: ['BTC_USDT'],
      timeoutSec: 5,
      scheduler,
      logger: pino({ level: 'silent' }),
      journal,
      onError: (e) => errors.push(e),
    });
    await expect(deadMan.start()).resolves.toBeUndefined();
    expect(errors[0]?.code).toBe('ERR_DEAD_MAN_ARM');
    await deadMan.clear();
    expect(errors.at(-1)?.code).toBe('ERR_DEAD_MAN_CLEAR');
  });
});
