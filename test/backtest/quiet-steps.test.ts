import { describe, expect, it } from 'vitest';
import { checkingSettler, LoudStepError } from '../../backtest/replay/settle.js';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { poll } from '../../src/streams/poll.js';
import { startsRequest } from '../../src/streams/starts-request.js';
import { venueRig } from './venue-rig.js';

// the venue rig's book has one more level a side than this test needs: the requests only need a book
const setup = () => venueRig();

/** Runs steps until nothing is due, draining after each; the settleNeeded of every step in order. */
async function steps(s: SteppingScheduler, n: number): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < n && s.runNext(); i++) {
    out.push(s.settleNeeded);
    await new Promise((r) => setImmediate(r));
  }
  return out;
}

describe('a step of timers that only started requests the venue vouched for needs no drain', () => {
  it("a poll marked startsRequest: its timer's step, then the arrival's, need none; the response's does", async () => {
    const { scheduler, venue } = setup();
    const books: number[] = [];
    const sub = poll(() => venue.orderBook('BTC_USDT'), { periodMs: 1000, scheduler, startsRequest: true }).subscribe((b) => books.push(b.timestamp));
    // timer (t0), arrival (+20), response (+50), next timer (+1000), ...
    expect(await steps(scheduler, 6)).toEqual([false, false, true, false, false, true]);
    expect(books).toHaveLength(2);
    sub.unsubscribe();
  });

  it('the same poll unmarked: its timer step is drained', async () => {
    const { scheduler, venue } = setup();
    const sub = poll(() => venue.orderBook('BTC_USDT'), { periodMs: 1000, scheduler }).subscribe();
    expect(await steps(scheduler, 3)).toEqual([true, false, true]);
    sub.unsubscribe();
  });

  it('marked work that starts no request, or one the venue does not vouch for, or two, is drained', async () => {
    const { scheduler, venue } = setup();
    scheduler.schedule(
      startsRequest(() => undefined),
      0,
    );
    expect(await steps(scheduler, 1)).toEqual([true]);
    // an api that is not the venue: a settled promise, whose `then` queues a reaction at once
    scheduler.schedule(
      startsRequest(() => void Promise.resolve(1).then(() => undefined)),
      0,
    );
    expect(await steps(scheduler, 1)).toEqual([true]);
    scheduler.schedule(
      startsRequest(() => {
        void venue.ping();
        void venue.ping();
      }),
      0,
    );
    expect(await steps(scheduler, 1)).toEqual([true]);
  });

  it('a quiet step of marked work is still drained when any other work ran in it', async () => {
    const { scheduler, venue } = setup();
    scheduler.schedule(
      startsRequest(() => void venue.ping()),
      5,
    );
    scheduler.schedule(() => undefined, 5);
    expect(await steps(scheduler, 1)).toEqual([true]);
  });
});

describe("the checking settler's account of a quiet step (tests' checkSettled)", () => {
  it('passes a step that queued nothing (a pending promise chained on)', async () => {
    const settler = checkingSettler();
    try {
      settler.begin();
      void new Promise(() => undefined).then(() => undefined);
      await expect(settler.checkQuiet!(7)).resolves.toBeUndefined();
    } finally {
      settler.stop();
    }
  });

  it('fails a step that queued a reaction: LoudStepError', async () => {
    const settler = checkingSettler();
    try {
      settler.begin();
      void Promise.resolve().then(() => undefined);
      await expect(settler.checkQuiet!(7)).rejects.toBeInstanceOf(LoudStepError);
    } finally {
      settler.stop();
    }
  });
});
