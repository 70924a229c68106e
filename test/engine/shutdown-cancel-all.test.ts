import { afterEach, describe, expect, it } from 'vitest';
import { MemoryJournal } from '../../src/engine/journal.js';
import { D } from '../../src/model/decimal.js';
import type { VirtualSim } from '../helpers/virtual-sim.js';
import { exampleConfig, runAgainstSim, startFastSim } from '../strategies/sim-run.js';

/** The stop sequence's cancel-all for a strategy alone on its market: the grid (11 levels) against the sim (in-process, virtual time). */
describe('shutdown: one cancel-all for a market one strategy trades alone', () => {
  const sims: VirtualSim[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) s.close();
  });

  async function run(foreign: boolean) {
    const sim = startFastSim(1);
    sims.push(sim);
    const cfg = exampleConfig('grid');
    const accountId = sim.exchange.accountByName(cfg.account)!.id;
    // an order of the same account that this daemon did not place (a person, another program)
    const other = foreign
      ? sim.exchange.placeLimit(accountId, { market: 'BTC_USDT', side: 'buy', amount: D('0.001'), price: D('20000'), clientOrderId: 'by-hand-1' })
      : undefined;
    if (other !== undefined && !other.ok) throw new Error(other.message);
    const journal = new MemoryJournal();
    await runAgainstSim({ sim, account: cfg.account, strategies: cfg.strategies, journal, ms: 2500, cancelOnStop: true, polling: { openOrdersMs: 60_000 } });
    const records = journal.records();
    const cancelAlls = sim.stats.arrivalTimes('orderCancelAll').length;
    return { sim, accountId, records, cancelAlls };
  }

  it('alone: one order/cancel/all, every order journalled cancel → canceled, nothing left open', async () => {
    const r = await run(false);
    expect(r.cancelAlls).toBe(1);
    expect(r.sim.exchange.openOrders(r.accountId)).toEqual([]);
    // the strategies are stopped and the queue drained before the stop's cancels: they come after the last submit
    const stopAt = r.records.map((x) => x.type).lastIndexOf('submit');
    const cancelled = r.records
      .slice(stopAt)
      .filter((x) => x.type === 'cancel')
      .map((x) => (x as { clientOrderId: string }).clientOrderId);
    expect(cancelled.length).toBeGreaterThanOrEqual(5);
    for (const id of cancelled) {
      const outcome = r.records.filter((x) => x.type === 'outcome' && x.clientOrderId === id).at(-1);
      expect(outcome, id).toMatchObject({ state: expect.stringMatching(/^(canceled|filled)$/) });
    }
    // no order was cancelled one by one at the stop (before it, the grid may have moved an order)
    const cancelAllAt = r.sim.stats.arrivalTimes('orderCancelAll')[0]!;
    expect(r.sim.stats.arrivals.filter((a) => a.endpoint === 'orderCancel' && a.at >= cancelAllAt)).toEqual([]);
  }, 30_000);

  it('an order of someone else on the market: one cancel per order as before, and that order survives', async () => {
    const r = await run(true);
    expect(r.cancelAlls).toBe(0);
    expect(r.sim.exchange.openOrders(r.accountId).map((o) => o.clientOrderId)).toEqual(['by-hand-1']);
    expect(r.sim.stats.arrivals.filter((a) => a.endpoint === 'orderCancel').length).toBeGreaterThanOrEqual(5);
  }, 30_000);
});
