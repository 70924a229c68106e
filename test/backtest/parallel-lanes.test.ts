import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FILL_MODEL_DOC } from '../../src/fill-model/fill-model-doc.js';
import { buildReport } from '../../backtest/report/build-report.js';
import { replayFingerprint } from '../../backtest/replay/replay-fingerprint.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { idleLaneWorkers, runBacktestParallel, type StrategySource } from '../../backtest/replay/run-parallel.js';
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

const sample = fileURLToPath(new URL('../../backtest/sample-data/sim-btc-usdt.jsonl.gz', import.meta.url));
const balances = { BTC: D('1'), USDT: D('50000') };
const polling = { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 };
const source: StrategySource = {
  id: 'mm',
  use: 'market-maker',
  cwd: process.cwd(),
  market: 'BTC_USDT',
  params: { spread: '0.0004', size: '0.01', levels: 2, maxInventory: '0.1', refreshThreshold: '0.0002' },
  risk: { maxLoss: D('500'), maxOpenOrders: 8 },
};

describe('lanes in parallel (one worker thread per fill assumption beyond the first)', () => {
  it('decide exactly what the lanes decide in sequence: same fingerprint, same report', async () => {
    const { use: _u, cwd: _c, ...rest } = source;
    const sequential = await runBacktest({
      files: [sample],
      cache: { dir: false },
      strategies: [{ ...rest, definition: await loadStrategy(builtinStrategies, 'market-maker') }],
      balances,
      polling,
    });
    const parallel = await runBacktestParallel({ files: [sample], cache: { dir: false }, sources: [source], balances, polling, fingerprint: true });
    expect(parallel.lanes.map((l) => l.assumption)).toEqual(['optimistic', 'pessimistic']);
    expect(parallel.lanes[1]!.exchange.fills.length).toBeGreaterThan(0);
    expect(replayFingerprint(parallel)).toBe(replayFingerprint(sequential));
    const report = (r: Parameters<typeof buildReport>[0]) => buildReport(r, { files: [sample], initial: balances, fillModelDoc: FILL_MODEL_DOC });
    expect(report(parallel)).toEqual(report(sequential));
    // the worker waits warm for the next run, which it decides the same way again
    expect(idleLaneWorkers()).toBe(1);
    const again = await runBacktestParallel({ files: [sample], cache: { dir: false }, sources: [source], balances, polling, fingerprint: true });
    expect(idleLaneWorkers()).toBe(1);
    expect(replayFingerprint(again)).toBe(replayFingerprint(sequential));
    expect(report(again)).toEqual(report(sequential));
  }, 120_000);

  it('a config error (here: the strategy trades another market than the data) is a ConfigError, as in sequence', async () => {
    await expect(
      runBacktestParallel({ files: [sample], cache: { dir: false }, sources: [{ ...source, market: 'ETH_USDT' }], balances, polling }),
    ).rejects.toBeInstanceOf(ConfigError);
    // the worker taken for the failed run is not back in the pool
    expect(idleLaneWorkers()).toBe(0);
  }, 60_000);
});
