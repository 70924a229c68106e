/**
 * `npm run bench -- backtest`: replay throughput of the backtest engine with the market maker, next to
 * the floor of only reading and parsing the same file, on a generated day of 1 s snapshots (20 levels a
 * side; generated once under the OS temp dir and cached). Figures: snapshots/s of each, their ratio
 * (target >= 0.5) and the time for the day (target < 2 s). Both sides are warmed first (the floor by a full read,
 * the engine by a replay of the first tenth of the file), and the 1-lane ratio is also given on process CPU time,
 * which a shared machine disturbs less than wall time.
 * `BACKTEST_BENCH_SNAPSHOTS=N` replays a shorter file (e.g. 10000) on a slow or shared machine.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { wireMarketFromOptions } from '../../backtest/importers/binance-depth-importer.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { D } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';

const market = wireMarketFromOptions({ name: 'BTC_USDT', stock: 'BTC', money: 'USDT', stockPrec: 6, moneyPrec: 2, minAmount: '0.0001', minTotal: '1', makerFeePercent: '0.1', takerFeePercent: '0.1' });

async function dataFile(n: number): Promise<string> {
  const dir = join(tmpdir(), 'v4-trader-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `backtest-${n}-v1.jsonl.gz`);
  if (!existsSync(file)) {
    const partial = `${file}.part-${process.pid}`;
    await generateRecording({ out: partial, market, snapshots: n, intervalMs: 1000, startT: 1_700_000_000_000, startTicks: 3_000_000, stepTicks: 150, seed: 42, minQty: 0.2 });
    renameSync(partial, file);
  }
  return file;
}

/** The floor: read, gunzip, decode every line and build the snapshot views the replay builds (best bid/ask in ticks). */
async function readOnly(file: string): Promise<number> {
  const feed = new DataFeed({ files: [file] });
  let n = 0;
  let checksum = 0;
  for (let e = await feed.next(); e !== undefined; e = await feed.next()) {
    if (e.kind !== 'book') continue;
    n += 1;
    checksum += (e.snapshot.bidTicks()[0] ?? 0) + (e.snapshot.askTicks()[0] ?? 0);
  }
  if (checksum === 0) throw new Error('empty file');
  return n;
}

export default async function backtestBench(): Promise<void> {
  const n = Number(process.env.BACKTEST_BENCH_SNAPSHOTS ?? 86_400);
  const file = await dataFile(n);
  const mm = await loadStrategy('market-maker');
  const strategies = [{ id: 'mm', definition: mm, market: 'BTC_USDT', params: { spread: '0.0004', size: '0.01', levels: 1, maxInventory: '0.1', refreshThreshold: '0.0002' } }];
  const polling = { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 };

  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  await readOnly(file); // warm the page cache and the JIT
  let cpu = cpuMs();
  const t = performance.now();
  const parsed = await readOnly(file);
  const floorMs = performance.now() - t;
  const floorCpu = cpuMs() - cpu;

  const run = async (assumptions: Array<'optimistic' | 'pessimistic'>, to?: number) => {
    const start = performance.now();
    const r = await runBacktest({ files: [file], strategies, balances: { BTC: D('10'), USDT: D('1000000') }, polling, assumptions, ...(to === undefined ? {} : { to }) });
    return { ms: performance.now() - start, r };
  };
  // Warm the engine's JIT as the floor's was warmed: a replay of the first tenth of the file (at most 10,000 s).
  await run(['optimistic', 'pessimistic'], 1_700_000_000_000 + Math.min(10_000, Math.ceil(n / 10)) * 1000);
  cpu = cpuMs();
  const one = await run(['pessimistic']);
  const oneCpu = cpuMs() - cpu;
  const both = await run(['optimistic', 'pessimistic']);

  const rate = (count: number, ms: number): string => `${Math.round((count * 1000) / ms).toLocaleString('en-US')} snapshots/s`;
  const lane = one.r.lanes[0]!;
  process.stdout.write(
    [
      `file: ${n.toLocaleString('en-US')} snapshots of 1 s, 20 levels a side (${file})`,
      `floor (read + gunzip + parse):          ${rate(parsed, floorMs)}  (${floorMs.toFixed(0)} ms)`,
      `replay, market maker, 1 lane:           ${rate(one.r.snapshots, one.ms)}  (${one.ms.toFixed(0)} ms; ${lane.exchange.placed} orders, ${lane.exchange.fills.length} fills)`,
      `replay, market maker, 2 lanes (band):   ${rate(both.r.snapshots, both.ms)}  (${both.ms.toFixed(0)} ms)`,
      `ratio replay/floor: 1 lane ${(floorMs / one.ms).toFixed(3)}, 2 lanes ${(floorMs / both.ms).toFixed(3)}  (target >= 0.5; 1 lane on CPU time: ${(floorCpu / oneCpu).toFixed(3)})`,
      `a day of 1 s snapshots (86,400) at the 1-lane rate: ${((86_400 * one.ms) / one.r.snapshots / 1000).toFixed(2)} s  (target < 2 s)`,
      '',
    ].join('\n'),
  );
}
