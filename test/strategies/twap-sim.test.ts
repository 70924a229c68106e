import { afterAll, describe, expect, it } from 'vitest';
import { D, ZERO } from '../../src/model/decimal.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { VirtualSim } from '../helpers/virtual-sim.js';
import { exampleConfig, maxLivePerTag, rejectionsByStage, runAgainstSim, simRejections, startFastSim } from './sim-run.js';

/**
 * config/twap.yaml, its schedule shortened to 12 s (6 slices of 0.001 BTC), through the real runtime and REST
 * client against the simulated exchange (in-process, on virtual time: test/helpers/virtual-sim.ts), its market
 * running 20× faster.
 */
describe('twap against the simulated exchange', () => {
  let sim: VirtualSim | undefined;
  afterAll(() => {
    sim?.close();
  });

  it('works the order in slices, one order at a time, never over the total, with 0 venue and 0 rule rejections', async () => {
    const s = (sim = startFastSim(20));
    const { account, strategies } = exampleConfig('twap');
    const short = strategies.map((s) => ({ ...s, params: { ...s.params, total: '0.006', durationMs: 12_000, slices: 6, priceLimit: 40_000 } }));
    const journal = new MemoryJournal();
    const run = await runAgainstSim({ sim: s, account, strategies: short, journal, ms: 20_000, cancelOnStop: true });
    const records = journal.records();

    expect(simRejections(s, records).byCode).toEqual({}); // no order, cancel or poll refused for its content
    expect(rejectionsByStage(records, run.events)).toEqual({});
    const submits = records.filter((r) => r.type === 'submit');
    expect(submits.length).toBeGreaterThanOrEqual(2); // sliced, not one order
    for (const s of submits) expect(s.type === 'submit' && s.order.side).toBe('buy');
    expect(maxLivePerTag(records, () => 'twap').get('twap')).toBe(1);
    const bought = records.reduce((sum, r) => (r.type === 'fill' ? sum.plus(D(r.deal.amount)) : sum), ZERO);
    expect(bought.gt(0)).toBe(true);
    expect(bought.lte(D('0.006'))).toBe(true);
  });
});
