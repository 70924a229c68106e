import { interval, take, toArray, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { D } from '../../src/model/decimal.js';
import { InnerValidationError, RequestValidationError } from '../../src/venue/errors.js';
import { drive, snapshot, venueRig } from './venue-rig.js';

describe('stepping scheduler', () => {
  it('runs RxJS timers on virtual time, in time order, FIFO at equal times', async () => {
    const s = new SteppingScheduler(0);
    const seen: string[] = [];
    s.schedule(() => seen.push('b@10'), 10);
    s.schedule(() => seen.push('a@5'), 5);
    s.schedule(() => seen.push('c@10'), 10);
    const cancelled = s.schedule(() => seen.push('never'), 7);
    cancelled.unsubscribe();
    const ticks = firstValueFrom(interval(1000, s).pipe(take(3), toArray()));
    expect(s.runNext(4)).toBe(false);
    while (s.runNext()) await Promise.resolve();
    expect(seen).toEqual(['a@5', 'b@10', 'c@10']);
    expect(await ticks).toEqual([0, 1, 2]);
    expect(s.now()).toBe(3000);
  });

  it('tells whether a step ran only work declared synchronous (no promise to settle)', () => {
    const s = new SteppingScheduler(0);
    const seen: string[] = [];
    s.post((what) => seen.push(what), 5, 'sync@5', true);
    s.post((what) => seen.push(what), 10, 'sync@10', true);
    s.schedule(() => seen.push('plain@10'), 10);
    s.post((what) => seen.push(what), 10, 'posted@10', false);
    s.schedule(() => seen.push('plain@20'), 20);
    s.post((what) => seen.push(what), 30, 'posted@30', false);
    expect(s.runNext()).toBe(true);
    expect(s.settleNeeded).toBe(false);
    expect(s.runNext()).toBe(true);
    expect(s.settleNeeded).toBe(true); // a plain action in the same step
    expect(s.runNext()).toBe(true);
    expect(s.settleNeeded).toBe(true);
    expect(s.runNext()).toBe(true);
    expect(s.settleNeeded).toBe(true); // posted work not declared synchronous
    // posted and scheduled work share one order: due time, then as queued
    expect(seen).toEqual(['sync@5', 'sync@10', 'plain@10', 'posted@10', 'plain@20', 'posted@30']);
  });
});

describe('backtest venue', () => {
  it('acts at arrival time and answers after the response latency', async () => {
    const { scheduler, venue } = venueRig();
    const order = await drive(
      scheduler,
      venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.5'), price: D('99.5'), clientOrderId: 'a-1', postOnly: true }),
    );
    expect(scheduler.now()).toBe(1_000_050);
    expect(order.timestamp).toBe(1_000_020 / 1000);
    const bal = await drive(scheduler, venue.tradeBalance());
    // 0.5 × 99.5 × (1 + maker fee 0.001) frozen for a post-only buy
    expect(bal['USDT']!.freeze.toFixed()).toBe('49.79975');
    expect(bal['USDT']!.available.toFixed()).toBe('950.20025');
  });

  it('arrives without promise work (no settle needed) and settles the promise in the response step', async () => {
    const { scheduler, venue } = venueRig();
    let settled = false;
    void venue.tradeBalance().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(scheduler.runNext()).toBe(true);
    expect(scheduler.now()).toBe(1_000_020);
    expect(scheduler.settleNeeded).toBe(false);
    expect(scheduler.runNext()).toBe(true);
    expect(scheduler.now()).toBe(1_000_050);
    expect(scheduler.settleNeeded).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(true);
  });

  it('rejects like the venue: rule violations 422 with the code, post-only/balance 400 code 10, unknown cancel 400 code 2', async () => {
    const { scheduler, venue, exchange } = venueRig();
    const offStep = drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.5'), price: D('99.505') }));
    await expect(offStep).rejects.toBeInstanceOf(RequestValidationError);
    await expect(offStep).rejects.toMatchObject({ venueCode: 33, status: 422 });
    const crossing = drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.5'), price: D('100.10'), postOnly: true }));
    await expect(crossing).rejects.toBeInstanceOf(InnerValidationError);
    await expect(crossing).rejects.toMatchObject({ venueCode: 10, errors: { postOnly: [expect.any(String)] } });
    const poor = drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('50'), price: D('99') }));
    await expect(poor).rejects.toMatchObject({ venueCode: 10, errors: { amount: ['Not enough balance.'] } });
    const cancel = drive(scheduler, venue.cancel({ market: 'BTC_USDT', clientOrderId: 'nope' }));
    await expect(cancel).rejects.toMatchObject({ venueCode: 2 });
    expect(exchange.placed).toBe(0);
  });

  it('takes liquidity at the displayed prices when an order crosses, with the taker fee', async () => {
    const { scheduler, venue, exchange } = venueRig({ requestMs: 0, responseMs: 0 });
    const o = await drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('1.5'), price: D('102.00'), ioc: true }));
    expect(o.left.toFixed()).toBe('0');
    expect(exchange.fills.map((f) => `${f.role} ${f.price.toFixed()} ${f.amount.toFixed()} ${f.fee.toFixed()}`)).toEqual([
      'taker 100.1 1 0.1001',
      'taker 102 0.5 0.051',
    ]);
    const bal = exchange.tradeBalances();
    expect(bal['BTC']!.available.toFixed()).toBe('2.5');
    expect(bal['USDT']!.available.toFixed()).toBe(D('1000').sub('100.1').sub('0.1001').sub('51').sub('0.051').toFixed());
    expect(bal['USDT']!.freeze.toFixed()).toBe('0');
  });

  it('fills a resting order when a later snapshot trades through it, at its price as maker', async () => {
    const { scheduler, venue, exchange } = venueRig({ requestMs: 0, responseMs: 0 });
    await drive(scheduler, venue.placeLimit({ market: 'BTC_USDT', side: 'sell', amount: D('0.4'), price: D('100.50'), postOnly: true }));
    exchange.onSnapshot(snapshot(1_001_000, '100.60', '100.70')); // bids at >= 100.50: 1 BTC at 100.60
    expect(exchange.fills.map((f) => `${f.side} ${f.role} ${f.price.toFixed()} ${f.amount.toFixed()}`)).toEqual(['sell maker 100.5 0.4']);
    const deals = await drive(scheduler, venue.deals({ market: 'BTC_USDT' }));
    expect(deals).toHaveLength(1);
    expect(await drive(scheduler, venue.openOrders({ market: 'BTC_USDT' }))).toEqual([]);
  });

  it('holds requests back in virtual time so no 10 s window carries more than the order book limit', async () => {
    const { scheduler, venue } = venueRig({ requestMs: 1, responseMs: 1 });
    const calls = Array.from({ length: 700 }, () => venue.orderBook('BTC_USDT', { limit: 5 }).then(() => scheduler.now()));
    const times = await drive(scheduler, Promise.all(calls));
    const arrivals = times.map((t) => t - 2).sort((a, b) => a - b);
    for (let i = 600; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 600]!).toBeGreaterThanOrEqual(10_000);
    expect(arrivals[arrivals.length - 1]! - arrivals[0]!).toBeGreaterThanOrEqual(10_000);
    expect(venue.limiterStats().length).toBeGreaterThan(0);
  });
});
