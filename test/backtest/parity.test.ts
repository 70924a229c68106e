import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { runBacktest, type BacktestResult } from '../../backtest/replay/run-backtest.js';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { loadRecordedBooks, type RecordedBooks } from '../../src/sim/recorded-flow.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import type { RuntimeStrategy } from '../../src/engine/runtime.js';
import type { Intent } from '../../src/strategy/intents.js';
import { runDaemonAgainstReplayingSim, type LockstepResult } from './lockstep-daemon.js';
import { generatedBtcUsdtMarket } from './fixtures.js';

/**
 * Parity: the same strategy on the same recording through (a) the backtest engine and (b) the daemon
 * trading over HTTP against the simulated exchange that replays the recording (recorded flow), both on
 * virtual time. The sim's replay fills a client only when the recorded book trades through its order
 * (see src/sim/recorded-flow.ts), which is the backtest's PESSIMISTIC assumption, so that lane is
 * compared, with the latency set to 0 (over loopback in lock-step no virtual time passes in flight).
 *
 * The differences that remain, by design:
 *  - deal ids and order ids are numbered by each venue (the sim also numbers the flow's orders), so
 *    fills are compared by time, side, price, amount, role and fee;
 *  - the sim's public book contains the daemon's own quotes; the strategy's parameters keep its quotes
 *    behind the recorded touch, where they do not change the best bid/ask it quotes from;
 *  - in the sim our fills CONSUME the flow's orders, and the mirror does not place again what we ate while
 *    the recording shows it (book-mirror.ts), so a recorded level smaller than our fills is gone from the
 *    book afterwards and one order can fill against two flow orders (two deals); the backtest never
 *    removes recorded liquidity from a later snapshot (documented limit of its fill model; for a resting
 *    order the two agree: X1 - X0) and books one deal per order and snapshot. Seen with this very test on small levels (0.0103 at the touch: the sim then showed the
 *    next level as best ask, the strategy quoted one tick higher from then on). The recording here has
 *    levels of at least 0.5 against orders of 0.01, so neither happens and the runs must agree exactly.
 */
const tmp = mkdtempSync(join(tmpdir(), 'bt-parity-'));
const file = join(tmp, 'gen.jsonl.gz');
const market = generatedBtcUsdtMarket({ takerFeePercent: '0.2' });
const balances = { BTC: D('1'), USDT: D('100000') };
const polling = { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 };
let strategies: RuntimeStrategy[];
let books: RecordedBooks;
let backtest: BacktestResult;
let daemon: LockstepResult;

beforeAll(async () => {
  await generateRecording({
    out: file,
    market,
    snapshots: 240,
    intervalMs: 1000,
    startT: 1_700_000_000_000,
    startTicks: 3_000_000,
    stepTicks: 250,
    seed: 5,
    minQty: 0.5,
  });
  books = await loadRecordedBooks(file);
  const mm = await loadStrategy(builtinStrategies, 'market-maker');
  strategies = [
    {
      id: 'mm',
      definition: mm,
      market: 'BTC_USDT',
      params: { spread: '0.0002', size: '0.01', levels: 2, levelSpacing: '0.0001', maxInventory: '0.05', refreshThreshold: '0.00005' },
    },
  ];
  backtest = await runBacktest({ files: [file], strategies, balances, polling, latency: { requestMs: 0, responseMs: 0 }, assumptions: ['pessimistic'] });
  daemon = await runDaemonAgainstReplayingSim({ books, balances, strategies, polling });
}, 240_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const intentKey = (t: number, i: Intent): string => {
  switch (i.kind) {
    case 'place-limit':
      return `${t} place ${i.side} ${i.price.toFixed()} ${i.amount.toFixed()} ${i.tag ?? ''}`;
    case 'cancel':
      return `${t} cancel ${i.clientOrderId}`;
    default:
      return `${t} ${i.kind}`;
  }
};
const fillKey = (d: Deal): string => `${Math.round(d.time * 1000)} ${d.side} ${d.price.toFixed()} ${d.amount.toFixed()} ${d.role} ${d.fee.toFixed()}`;

describe('parity: backtest engine vs daemon against the sim replaying the same recording', () => {
  it('both runs trade (the comparison is not vacuous)', () => {
    const lane = backtest.lanes[0]!;
    expect(lane.intents.length).toBeGreaterThan(20);
    expect(lane.engineFills.length).toBeGreaterThan(5);
    expect(lane.engineFills.some((d) => d.side === 'buy') && lane.engineFills.some((d) => d.side === 'sell')).toBe(true);
  });

  it('gives the same intents, in the same order at the same virtual times', () => {
    const a = backtest.lanes[0]!.intents.map((r) => intentKey(r.t, r.intent));
    const b = daemon.intents.map((r) => intentKey(r.t, r.intent));
    expect(b).toEqual(a);
  });

  it('gives the same fills (time, side, price, amount, role, fee)', () => {
    const a = backtest.lanes[0]!.engineFills.map(fillKey).sort();
    const b = daemon.fills.map(fillKey).sort();
    expect(b).toEqual(a);
  });
});
