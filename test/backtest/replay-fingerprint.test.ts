import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replayFingerprint } from '../../backtest/replay/replay-fingerprint.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { D } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

const sample = fileURLToPath(new URL('../../backtest/sample-data/sim-btc-usdt.jsonl.gz', import.meta.url));

/**
 * The replay's decisions, pinned: intents, fills, equity, journal and summary of both lanes on the sample recording
 * hash to the value below, measured before the replay was made faster (issue #13: microtask draining, parallel lanes,
 * fewer allocations; the hash became one over per-lane digests when lanes went to worker threads, re-pinned then
 * with the replay's old event-loop-turn drain). A change that moves it changed what the backtest decides, not only how fast; update it only
 * for a deliberate change of the replay's semantics, and say so in the commit.
 */
const PINNED = {
  marketMaker: 'cb593be69cb5ca8bfb6aaf64f6492ae5c66480690bdc712a4e735727d9e4806b',
  grid: '115fdb1c13afbf02d81bfe10673ec7b41b429edc80e43b4370e509aa3fc57ec4',
};

async function replay(use: string, params: Record<string, unknown>, keepJournal?: boolean) {
  return runBacktest({
    ...(keepJournal === undefined ? {} : { keepJournal }),
    files: [sample],
    cache: { dir: false },
    strategies: [{ id: 's', definition: await loadStrategy(builtinStrategies, use), market: 'BTC_USDT', params }],
    balances: { BTC: D('1'), USDT: D('50000') },
    polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
  });
}

describe('the replay fingerprint (sameness across speed work)', () => {
  it('market maker, both lanes, with latency and rate limits: the pinned hash', async () => {
    const r = await replay('market-maker', { spread: '0.0004', size: '0.01', levels: 2, maxInventory: '0.1', refreshThreshold: '0.0002' });
    expect(r.lanes.every((l) => l.engineFills.length > 0)).toBe(true);
    expect(replayFingerprint(r)).toBe(PINNED.marketMaker);
  });

  it('a run that drops its journal decides the same; its lanes have no journal and so no fingerprint', async () => {
    const params = { spread: '0.0004', size: '0.01', levels: 2, maxInventory: '0.1', refreshThreshold: '0.0002' };
    const [kept, dropped] = [await replay('market-maker', params), await replay('market-maker', params, false)];
    const decided = (r: typeof kept) =>
      r.lanes.map((l) => ({
        intents: l.intents.map((i) => ({ ...i, intent: JSON.stringify(i.intent) })),
        fills: l.engineFills.map((d) => JSON.stringify(d)),
        venue: l.exchange.fills.map((d) => JSON.stringify(d)),
        equity: [...l.equity].map((p) => `${p.t} ${p.mid} ${p.equity} ${p.inventory}`),
        summary: JSON.stringify(l.summary),
      }));
    expect(kept.lanes.every((l) => (l.journal?.records().length ?? 0) > 1000)).toBe(true);
    expect(dropped.lanes.map((l) => l.journal)).toEqual([undefined, undefined]);
    expect(decided(dropped)).toEqual(decided(kept));
    expect(() => replayFingerprint(dropped)).toThrow(/journal was not kept/);
  });

  it('grid, both lanes: the pinned hash', async () => {
    const r = await replay('grid', { range: '0.003', levels: 8, amount: '0.002' });
    expect(replayFingerprint(r)).toBe(PINNED.grid);
  });
});
