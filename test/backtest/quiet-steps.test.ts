import { describe, expect, it } from 'vitest';
import { BacktestVenue } from '../../backtest/replay/backtest-venue.js';
import { checkingSettler, LoudStepError } from '../../backtest/replay/settle.js';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { VirtualExchange } from '../../backtest/replay/virtual-exchange.js';
import { D } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { poll } from '../../src/streams/poll.js';
import { startsRequest } from '../../src/streams/starts-request.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import { btcUsdtWireMarket } from './fixtures.js';

const market = parseMarket(btcUsdtWireMarket());

function setup() {
  const scheduler = new SteppingScheduler(1_000_000);
  const exchange = new VirtualExchange({
    market,
    assumption: 'pessimistic',
    balances: { BTC: D('1'), USDT: D('1000') },
    hasTrades: false,
    now: () => scheduler.now(),
  });
  exchange.onSnapshot(new RecordedSnapshot(1_000_000, { ticker_id: 'BTC_USDT', timestamp: 1000, bids: [['100.00', '1']], asks: [['100.10', '1']] }, 100));
  const venue = new BacktestVenue({ exchange, scheduler, latency: { requestMs: 20, responseMs: 30 } });
  return { scheduler, venue };
}

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
