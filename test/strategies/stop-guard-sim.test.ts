import { afterAll, describe, expect, it } from 'vitest';
import { D, Decimal } from '../../src/model/decimal.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { VirtualSim } from '../helpers/virtual-sim.js';
import { exampleConfig, maxLivePerTag, rejectionsByStage, runAgainstSim, simRejections, startFastSim } from './sim-run.js';

/**
 * config/stop-guard.yaml (0.02 BTC above the 9.98 baseline guarded by a trailing sell stop-limit) through the real
 * runtime and REST client against the simulated exchange (in-process, on virtual time: test/helpers/virtual-sim.ts),
 * its market running 20× faster (18 s ≈ 6 simulated min).
 */
describe('stop guard against the simulated exchange', () => {
  let sim: VirtualSim | undefined;
  afterAll(() => {
    sim?.close();
  });

  it('guards the position with stop-limit orders, one at a time, with 0 venue and 0 rule rejections', async () => {
    const s = (sim = startFastSim(20));
    const { account, strategies } = exampleConfig('stop-guard');
    const journal = new MemoryJournal();
    const run = await runAgainstSim({ sim: s, account, strategies, journal, ms: 18_000, cancelOnStop: true, polling: { balancesMs: 500 } });
    const records = journal.records();

    expect(simRejections(s, records).byCode).toEqual({}); // no order, cancel or poll refused for its content
    expect(rejectionsByStage(records, run.events)).toEqual({});
    const stops = records.filter((r) => r.type === 'submit' && r.order.type === 'stop limit');
    expect(stops.length).toBeGreaterThanOrEqual(1);
    for (const s of stops) expect(s.type === 'submit' && s.order.side).toBe('sell');
    expect(maxLivePerTag(records).get('stop-guard')).toBe(1);
    // whatever fired, the guard never sold below the baseline
    const btc = s.exchange.tradeBalances(s.accountId(account))['BTC']!;
    expect(btc.available.plus(btc.freeze).gte(D('9.98'))).toBe(true);
  });

  it('the stop fires when the market falls through it: sells the position, never more, then stays flat', async () => {
    // alice gets enough BTC to sell through the synthetic bids; carol prints the last trade below the activation
    const crashSim = startFastSim(5, (c) => ({
      ...c,
      accounts: [
        ...c.accounts.map((a) => (a.name === 'alice' ? { ...a, trade: { ...a.trade, BTC: '1000' } } : a)),
        { name: 'carol', trade: { BTC: '1', USDT: '1000000' } },
      ],
    }));
    try {
      const { account, strategies } = exampleConfig('stop-guard');
      // a wide limit offset so the activated stop takes what bids are left at once
      const wide = strategies.map((s) => ({ ...s, params: { ...s.params, limitOffset: '0.01' } }));
      const journal = new MemoryJournal();
      const ex = crashSim.exchange;
      const seller = crashSim.accountId('alice');
      const buyer = crashSim.accountId('carol');
      const guarded = crashSim.accountId(account);
      let crashed: { ok: boolean; message?: string; last?: string | undefined; activation?: string } = { ok: false, message: 'no stop to crash through' };
      const crash = () => {
        // another account sells every bid down to just below the guard's activation price: the last trade falls through it
        const stop = ex.openOrders(guarded, { market: 'BTC_USDT' }).find((o) => o.kind === 'stop-limit');
        if (!stop?.activationPrice) return;
        const target = stop.activationPrice.times('0.999').toDecimalPlaces(2);
        const depth = ex
          .book('BTC_USDT', { limit: 100 })
          .bids.filter((l) => l.price.gte(target))
          .reduce((sum, l) => sum.plus(l.amount), D(0));
        const r = ex.placeLimit(seller, { market: 'BTC_USDT', side: 'sell', amount: Decimal.min(depth, D(900)).plus('0.001'), price: target, ioc: true });
        // the sweep's last trade is the lowest bid it reached, maybe still above the activation: trade once at the target
        ex.placeLimit(seller, { market: 'BTC_USDT', side: 'sell', amount: D('0.001'), price: target });
        ex.placeLimit(buyer, { market: 'BTC_USDT', side: 'buy', amount: D('0.001'), price: target, ioc: true });
        crashed = { ok: r.ok, ...(r.ok ? {} : { message: r.message }), last: ex.lastPrice('BTC_USDT')?.toFixed(), activation: stop.activationPrice.toFixed() };
      };
      const run = await runAgainstSim({
        sim: crashSim,
        account,
        strategies: wide,
        journal,
        ms: 12_000,
        cancelOnStop: true,
        polling: { balancesMs: 500 },
        midway: crash,
      });
      const records = journal.records();
      expect(crashed).toMatchObject({ ok: true });
      expect(D(crashed.last!).lte(D(crashed.activation!))).toBe(true);
      expect(simRejections(crashSim, records).byCode).toEqual({});
      expect(rejectionsByStage(records, run.events)).toEqual({});
      const fills = records.filter((r) => r.type === 'fill' && r.strategyId === 'guard-btc');
      expect(fills.length).toBeGreaterThan(0);
      const sold = fills.reduce((sum, r) => (r.type === 'fill' ? sum.plus(D(r.deal.amount)) : sum), D(0));
      expect(sold.toFixed()).toBe('0.02'); // exactly the position above the baseline
      const lastFillAt = Math.max(...fills.map((r) => r.t));
      expect(records.filter((r) => r.type === 'submit' && r.t > lastFillAt)).toEqual([]); // flat: nothing more to guard
      const btc = ex.tradeBalances(guarded)['BTC']!;
      expect(btc.available.plus(btc.freeze).toFixed()).toBe('9.98');
    } finally {
      crashSim.close();
    }
  });
});
