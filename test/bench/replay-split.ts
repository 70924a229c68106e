/**
 * Where the one-lane replay's time goes (issue 27): the same lane of the day, from the cache, with the journal
 * dropped, three ways, each the median of three warm runs:
 *  - `idle`: a strategy that subscribes to the book and never acts. What is left is the daemon's own runtime polling
 *    the virtual venue at the configured rates (book and deals every second, balances and open orders every five):
 *    ~207k simulated requests a day, the part every strategy pays.
 *  - `still`: the market maker quoting far from the touch with a large refresh threshold: it reads every book and
 *    decides every step, and places a handful of orders.
 *  - the bench's market maker (passed in), which places ~11k orders, cancels most, and is filled ~3.8k times.
 * The difference between the last two, per order placed, is what one order's life costs in the replay (gate,
 * executor, journal, two simulated requests, answer and fill checks, ledgers).
 */
import { ignoreElements } from 'rxjs';
import type { ReplaySetup } from './baseline-build.js';

/** What the bench has loaded of the compiled build (backtest.bench.ts compiledReplay). */
interface Compiled {
  runBacktest: typeof import('../../backtest/replay/run-backtest.js').runBacktest;
  D: typeof import('../../src/model/decimal.js').D;
  loadStrategy: typeof import('../../src/strategy/load-strategy.js').loadStrategy;
  compiledStrategies: typeof import('../../strategies/index.js').builtinStrategies;
  defineStrategy: typeof import('../../src/strategy/index.js').defineStrategy;
  z: typeof import('../../src/strategy/index.js').z;
}

export interface SplitRun {
  readonly ms: number;
  readonly placed: number;
}

export interface ReplaySplit {
  readonly idle: SplitRun;
  readonly still: SplitRun;
}

/** A strategy as runBacktest takes it. */
type Definition = Parameters<Compiled['runBacktest']>[0]['strategies'][number]['definition'];

const median = (runs: readonly SplitRun[]): SplitRun => [...runs].sort((a, b) => a.ms - b.ms)[runs.length >> 1]!;

export async function replaySplit(c: Compiled, s: ReplaySetup): Promise<ReplaySplit> {
  const idle = c.defineStrategy({ name: 'idle', params: c.z.object({}), create: (ctx) => ctx.book$.pipe(ignoreElements()) });
  const mm = await c.loadStrategy(c.compiledStrategies, 'market-maker');
  const lane = async (definition: Definition, params: Record<string, unknown>): Promise<SplitRun> => {
    const t = performance.now();
    const r = await c.runBacktest({
      files: [s.file],
      cache: { dir: s.cacheDir },
      strategies: [{ id: 'split', definition, market: 'BTC_USDT', params }],
      balances: { BTC: c.D('10'), USDT: c.D('1000000') },
      polling: s.polling,
      assumptions: ['pessimistic'],
      keepJournal: false,
    });
    return { ms: performance.now() - t, placed: r.lanes[0]!.exchange.placed };
  };
  const stillParams = { ...s.params, spread: '0.004', refreshThreshold: '0.5' };
  // one warm run each, then three measured, alternating
  await lane(idle, {});
  await lane(mm, stillParams);
  const idles: SplitRun[] = [];
  const stills: SplitRun[] = [];
  for (let i = 0; i < 3; i++) {
    idles.push(await lane(idle, {}));
    stills.push(await lane(mm, stillParams));
  }
  return { idle: median(idles), still: median(stills) };
}

/** The bench's line: each way's ratio to the cache floor, and the cost of one order's life. */
export function splitLine(split: ReplaySplit, floorMs: number, one: SplitRun): string {
  const r = (x: SplitRun): string => (floorMs / x.ms).toFixed(3);
  const perOrder = one.placed > split.still.placed ? ((one.ms - split.still.ms) * 1000) / (one.placed - split.still.placed) : Number.NaN;
  return (
    `where 1 lane's time goes, ratio to the cache floor: idle strategy ${r(split.idle)} (${split.idle.ms.toFixed(0)} ms: the runtime's polls alone), ` +
    `market maker quoting far ${r(split.still)} (${split.still.ms.toFixed(0)} ms, ${split.still.placed} orders), ` +
    `the bench's market maker ${r(one)} (${one.placed} orders: ${perOrder.toFixed(1)} µs of replay per order placed beyond the still one's)`
  );
}
