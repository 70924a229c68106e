import { afterAll, describe, expect, it } from 'vitest';
import { MemoryJournal } from '../../src/engine/journal.js';
import { D, Decimal } from '../../src/model/decimal.js';
import type { VirtualSim } from '../helpers/virtual-sim.js';
import { exampleConfig, maxLivePerTag, rejectionsByStage, runAgainstSim, simRejections, startFastSim } from './sim-run.js';

/**
 * config/grid.yaml through the real runtime and REST client against the simulated exchange (in-process, on virtual
 * time: test/helpers/virtual-sim.ts), the market running 20× faster (two runs of 12 s ≈ 8 simulated minutes), with a
 * restart in the middle that keeps the orders on the book: the second run must adopt them and never double a level.
 */
describe('grid against the simulated exchange', () => {
  let sim: VirtualSim | undefined;
  afterAll(() => {
    sim?.close();
  });

  it('trades with 0 venue and 0 rule rejections, at most one order per level at every moment, across a restart', async () => {
    // alice gets enough BTC to sell through the synthetic bids (see takeGridBid)
    const s = (sim = startFastSim(20, (c) => ({
      ...c,
      accounts: c.accounts.map((a) => (a.name === 'alice' ? { ...a, trade: { ...a.trade, BTC: '1000' } } : a)),
    })));
    const { account, strategies } = exampleConfig('grid');
    const ex = s.exchange;
    const idOf = (name: string) => s.accountId(name);
    // Half-way through the second run another account sells through the bids down to the grid's best bid, so the grid
    // trades however little the synthetic flow moved.
    const takeGridBid = () => {
      const bid = ex
        .openOrders(idOf(account), { market: 'BTC_USDT', limit: 100 })
        .filter((o) => o.side === 'buy')
        .sort((a, b) => b.price.cmp(a.price))[0];
      if (!bid) return;
      const depth = ex
        .book('BTC_USDT', { limit: 100 })
        .bids.filter((l) => l.price.gte(bid.price))
        .reduce((sum, l) => sum.plus(l.amount), D(0));
      ex.placeLimit(idOf('alice'), { market: 'BTC_USDT', side: 'sell', amount: Decimal.min(depth, D(900)), price: bid.price, ioc: true });
    };
    const journal = new MemoryJournal();
    const first = await runAgainstSim({ sim: s, account, strategies, journal, ms: 12_000, cancelOnStop: false });
    const openAfterFirst = s.exchange.openOrders(s.accountId(account), { market: 'BTC_USDT', limit: 100 });
    expect(openAfterFirst.length).toBeGreaterThanOrEqual(5); // left on the book on purpose

    const second = await runAgainstSim({ sim: s, account, strategies, journal, ms: 12_000, cancelOnStop: true, midway: takeGridBid });
    const records = journal.records();

    expect(simRejections(s, records).byCode).toEqual({}); // no order, cancel or poll refused for its content
    expect(rejectionsByStage(records, [...first.events, ...second.events])).toEqual({});
    // the restarted grid took over the resting orders (restored from the journal) instead of rebuilding: a fresh
    // grid submits one order per level (10) at once
    const restartAt = records.filter((r) => r.type === 'start')[1]!.t;
    const resubmitted = records.filter((r) => r.type === 'submit' && r.t >= restartAt);
    expect(resubmitted.length).toBeLessThan(openAfterFirst.length);

    const perTag = maxLivePerTag(records);
    expect(perTag.size).toBeGreaterThanOrEqual(9); // the grid's levels (one is the gap)
    for (const [tag, most] of perTag) expect({ tag, most }).toEqual({ tag, most: 1 });

    expect(records.filter((r) => r.type === 'fill').length).toBeGreaterThan(0);
  });

  it('with the journal lost, recognises the adopted orders by price and never doubles a level', async () => {
    const lostSim = startFastSim(20);
    try {
      const { account, strategies } = exampleConfig('grid');
      await runAgainstSim({ sim: lostSim, account, strategies, journal: new MemoryJournal(), ms: 6_000, cancelOnStop: false });
      const fresh = new MemoryJournal(); // the first run's journal is gone: orders come back untagged, by adoption
      const run = await runAgainstSim({ sim: lostSim, account, strategies, journal: fresh, ms: 8_000, cancelOnStop: false });
      const records = fresh.records();
      expect(records.filter((r) => r.type === 'adopt').length).toBeGreaterThanOrEqual(5);
      // kept, not churned: the untagged orders were matched to their levels by price, so none was canceled
      expect(records.filter((r) => r.type === 'cancel')).toEqual([]);
      expect(rejectionsByStage(records, run.events)).toEqual({});
      expect(simRejections(lostSim, records).byCode).toEqual({});
      for (const [price, most] of maxLivePerTag(records, (o) => o.price)) expect({ price, most }).toEqual({ price, most: 1 });
      const accountId = lostSim.accountId(account);
      const open = lostSim.exchange.openOrders(accountId, { market: 'BTC_USDT', limit: 100 });
      expect(new Set(open.map((o) => o.price.toFixed())).size).toBe(open.length);
    } finally {
      lostSim.close();
    }
  });
});
