import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { DEFAULT_SIM_CONFIG, DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, type SimConfig } from '../../src/sim/sim-config.js';
import type { SimTrade } from '../../src/sim/sim-types.js';
import { createSyntheticFlow } from '../../src/sim/synthetic-flow.js';

const START = 1_700_000_000_000;

/** Steps the flow `steps` times, `stepMs` apart, on a virtual clock. */
function runFlow(config: SimConfig, steps: number, stepMs = 250, during?: (ex: SimExchange, i: number) => void) {
  const clock = { now: START };
  const ex = new SimExchange(config, () => clock.now);
  const flow = createSyntheticFlow(ex);
  const trades: SimTrade[] = [];
  ex.onTrade((t) => trades.push(t));
  for (let i = 0; i < steps; i++) {
    clock.now += stepMs;
    flow.step(ex, clock.now);
    ex.tick(clock.now);
    during?.(ex, i);
  }
  return { ex, flow, trades, clock };
}

const describeBook = (ex: SimExchange, market: string) => {
  const b = ex.book(market, { limit: 10 });
  return [...b.asks, ...b.bids].map((l) => `${fmt(l.price)}x${fmt(l.amount)}`);
};

describe('synthetic flow', () => {
  it('is deterministic given the seed and the sequence of step times', () => {
    const x = runFlow(DEFAULT_SIM_CONFIG, 400);
    const y = runFlow(DEFAULT_SIM_CONFIG, 400);
    expect(x.trades.length).toBeGreaterThan(0);
    expect(y.trades.map((t) => `${t.market} ${fmt(t.price)} ${fmt(t.amount)} ${t.takerSide}`)).toEqual(
      x.trades.map((t) => `${t.market} ${fmt(t.price)} ${fmt(t.amount)} ${t.takerSide}`),
    );
    expect(describeBook(y.ex, 'BTC_USDT')).toEqual(describeBook(x.ex, 'BTC_USDT'));
  });

  it('another seed gives another market', () => {
    const raw = structuredClone(DEFAULT_SIM_CONFIG_INPUT);
    raw.flow!.markets!.BTC_USDT!.seed = 99;
    const other = parseSimConfig(raw);
    const x = runFlow(DEFAULT_SIM_CONFIG, 200);
    const y = runFlow(other, 200);
    expect(describeBook(y.ex, 'BTC_USDT')).not.toEqual(describeBook(x.ex, 'BTC_USDT'));
  });

  it('keeps a live, uncrossed two-sided book on every market with trades and a moving mid', () => {
    const { ex, flow, trades } = runFlow(DEFAULT_SIM_CONFIG, 1200, 250, (e) => {
      for (const m of ['BTC_USDT', 'ETH_USDT']) {
        const top = e.topOfBook(m);
        if (top.bid !== undefined && top.ask !== undefined) expect(top.bid.lt(top.ask)).toBe(true);
      }
    });
    for (const m of ['BTC_USDT', 'ETH_USDT']) {
      const b = ex.book(m);
      expect(b.bids.length).toBeGreaterThan(5);
      expect(b.asks.length).toBeGreaterThan(5);
      expect(trades.filter((t) => t.market === m).length).toBeGreaterThan(50);
      expect(new Set(trades.filter((t) => t.market === m).map((t) => t.takerSide)).size).toBe(2);
    }
    expect(fmt(flow.mid('BTC_USDT')!)).not.toBe('30000');
    // Funds stay conserved while the crowd trades.
    for (const asset of ['BTC', 'ETH', 'USDT']) expect(fmt(ex.totals(asset))).toBe(fmt(new SimExchange(DEFAULT_SIM_CONFIG).totals(asset)));
  });

  it("fills a bot's quote resting at the touch", () => {
    let quoteId: number | undefined;
    const { ex } = runFlow(DEFAULT_SIM_CONFIG, 2400, 250, (e, i) => {
      if (i !== 20) return;
      const top = e.topOfBook('BTC_USDT');
      // Improve the best bid by one step: the next seller crossing the spread meets the bot first.
      const r = e.placeLimit('alice', { market: 'BTC_USDT', side: 'buy', amount: D('0.002'), price: top.bid!.add('0.01'), postOnly: true });
      if (!r.ok) throw new Error(r.message);
      quoteId = r.order.orderId;
    });
    const deals = ex.deals('alice');
    expect(deals.length).toBeGreaterThan(0);
    expect(deals[deals.length - 1]).toMatchObject({ orderId: quoteId, role: 'maker', side: 'buy' });
  });

  it('the speed factor runs the same step times faster', () => {
    const slow = runFlow(DEFAULT_SIM_CONFIG, 200);
    const fast = runFlow({ ...DEFAULT_SIM_CONFIG, speed: 10 }, 200);
    expect(fast.trades.length).toBeGreaterThan(slow.trades.length * 3);
  });

  it('does nothing for markets it is not configured for, and nothing without a flow section', () => {
    const { trades, ex } = runFlow({ ...DEFAULT_SIM_CONFIG, flow: undefined }, 50);
    expect(trades).toEqual([]);
    expect(ex.book('BTC_USDT').bids).toEqual([]);
  });
});
