import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replayFingerprint } from '../../backtest/replay/replay-fingerprint.js';
import { runBacktest, type BacktestOptions } from '../../backtest/replay/run-backtest.js';
import { UnsettledChainError } from '../../backtest/replay/settle.js';
import { D } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

const sample = fileURLToPath(new URL('../../backtest/sample-data/sim-btc-usdt.jsonl.gz', import.meta.url));

async function replay(extra: Partial<BacktestOptions>) {
  return runBacktest({
    files: [sample],
    cache: { dir: false },
    to: 1795344940780 + 120_000, // two minutes of the sample: the check turns the event loop at every step
    strategies: [
      {
        id: 's',
        definition: await loadStrategy(builtinStrategies, 'market-maker'),
        market: 'BTC_USDT',
        params: { spread: '0.0004', size: '0.01', levels: 2, maxInventory: '0.1', refreshThreshold: '0.0002' },
      },
    ],
    balances: { BTC: D('1'), USDT: D('50000') },
    polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
    ...extra,
  });
}

describe('the replay settles every promise chain before virtual time moves (microtask draining, no event-loop turn)', () => {
  it('the drain leaves no chain running: an event-loop turn after each step settles nothing', async () => {
    const checked = await replay({ checkSettled: true });
    expect(checked.lanes[0]!.intents.length).toBeGreaterThan(0);
    // and the check does not change what the replay decides
    expect(replayFingerprint(checked)).toBe(replayFingerprint(await replay({})));
  }, 60_000);

  it('a drain that falls short (one microtask hop) is caught: UnsettledChainError', async () => {
    await expect(replay({ checkSettled: true, drain: () => Promise.resolve() })).rejects.toBeInstanceOf(UnsettledChainError);
  }, 60_000);

  it('the event-loop turn per step (the old drain) decides exactly what the microtask drain decides', async () => {
    const old = await replay({ drain: () => new Promise((r) => setImmediate(r)) });
    expect(replayFingerprint(old)).toBe(replayFingerprint(await replay({})));
  }, 60_000);
});
