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
 * for a deliberate change of the replay's semantics, and say so in the commit. Re-pinned for #24's stop sequence, which
 * reads the venue's open orders after its cancels ("open at stop" is what the venue lists): every intent, fill, equity
 * point and journal record up to the stop is the same; the final balance and stop records come one virtual round trip
 * (50 ms) later, and the summary names the orders open at stop and in doubt (none).
 */
const PINNED = {
  marketMaker: '9ed5b01dcb6640cf3e62ba2fda6b41dc25d067e8d1215e9f2d5eed6535b786a7',
  grid: 'bce52077d1be7ac5d3bf3b5998bf63bce949ebd98c0f9c5f1709660796f871b7',
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
