import { afterAll, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { SimHandle } from '../../src/sim/start-sim.js';
import { exampleConfig, maxLivePerTag, rejectionsByStage, runAgainstSim, simRejections, startFastSim } from './sim-run.js';

/**
 * config/stop-guard.yaml (0.02 BTC above the 9.98 baseline guarded by a trailing sell stop-limit) through the real
 * runtime and REST client against the simulated exchange, its market running 20× faster (18 s ≈ 6 simulated min).
 */
describe('stop guard against the simulated exchange', () => {
  let sim: SimHandle | undefined;
  afterAll(async () => {
    await sim?.close();
  });

  it('guards the position with stop-limit orders, one at a time, with 0 venue and 0 rule rejections', async () => {
    sim = await startFastSim(20);
    const { account, strategies } = exampleConfig('stop-guard');
    const journal = new MemoryJournal();
    const run = await runAgainstSim({ sim, account, strategies, journal, ms: 18_000, cancelOnStop: true, polling: { balancesMs: 500 } });
    const records = journal.records();

    expect(simRejections(sim).byCode).toEqual({}); // no order, cancel or poll refused for its content
    expect(rejectionsByStage(records, run.events)).toEqual({});
    const stops = records.filter((r) => r.type === 'submit' && r.order.type === 'stop limit');
    expect(stops.length).toBeGreaterThanOrEqual(1);
    for (const s of stops) expect(s.type === 'submit' && s.order.side).toBe('sell');
    expect(maxLivePerTag(records).get('stop-guard')).toBe(1);
    // whatever fired, the guard never sold below the baseline
    const btc = sim.exchange.tradeBalances(sim.exchange.accountByKey(sim.accounts.find((a) => a.name === account)!.apiKey)!.id)['BTC']!;
    expect(btc.available.plus(btc.freeze).gte(D('9.98'))).toBe(true);
  });
});
