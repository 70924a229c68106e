/** A backtest venue on the stepping scheduler over a one-market virtual exchange: the venue tests' rig. */
import { BacktestVenue } from '../../backtest/replay/backtest-venue.js';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { VirtualExchange } from '../../backtest/replay/virtual-exchange.js';
import { D } from '../../src/model/decimal.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import { btcUsdtWireMarket } from './fixtures.js';

export const market = parseMarket(btcUsdtWireMarket()); // tick 0.01, lot 0.00001, fees 0.1 %
export const snapshot = (t: number, bid: string, ask: string): RecordedSnapshot =>
  new RecordedSnapshot(
    t,
    {
      ticker_id: 'BTC_USDT',
      timestamp: t / 1000,
      bids: [
        [bid, '1'],
        ['99.00', '5'],
      ],
      asks: [
        [ask, '1'],
        ['102.00', '5'],
      ],
    },
    100,
  );

/** Drives the scheduler until `p` settles (as the replay loop does). */
export async function drive<T>(s: SteppingScheduler, p: Promise<T>): Promise<T> {
  let done = false;
  const out = p.finally(() => (done = true));
  out.catch(() => undefined);
  for (let i = 0; i < 10_000 && !done; i++) {
    await new Promise((r) => setImmediate(r));
    if (!done) s.runNext();
  }
  return out;
}

/** Holds 1 BTC and 1000 USDT, pessimistic fills, the book of `snapshot(1_000_000, '100.00', '100.10')`. */
export function venueRig(latency = { requestMs: 20, responseMs: 30 }) {
  const scheduler = new SteppingScheduler(1_000_000);
  const exchange = new VirtualExchange({
    market,
    assumption: 'pessimistic',
    balances: { BTC: D('1'), USDT: D('1000') },
    hasTrades: false,
    now: () => scheduler.now(),
  });
  exchange.onSnapshot(snapshot(1_000_000, '100.00', '100.10'));
  const venue = new BacktestVenue({ exchange, scheduler, latency });
  return { scheduler, exchange, venue };
}
