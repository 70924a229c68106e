import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { StateHistory } from '../../src/ops/dashboard/state-history.js';
import type { StatusSnapshot } from '../../src/engine/run-summary.js';

const snapshot = (mid: number, fills: number): StatusSnapshot => ({
  at: 0,
  queueDepth: 0,
  unknownOrders: 0,
  rejections: {},
  markets: [
    {
      market: 'BTC_USDT',
      mid: D(mid),
      bestBid: D(mid - 1),
      bestAsk: D(mid + 1),
      quotes: [
        { strategyId: 'mm', clientOrderId: 'a', side: 'buy', price: D(mid - 2), left: D(1), state: 'open' },
        { strategyId: 'mm', clientOrderId: 'b', side: 'buy', price: D(mid - 3), left: D(1), state: 'open' },
      ],
      strategies: [
        {
          id: 'mm',
          market: 'BTC_USDT',
          fills,
          volume: D(0),
          fees: D(0),
          realised: D(0),
          unrealised: D(0),
          net: D(0),
          inventory: D(0),
          avgCost: D(0),
          ordersPerMinute: 0,
          liveOrders: 2,
          halted: false,
          paused: false,
        },
      ],
    },
  ],
});

describe('the dashboard history', () => {
  it('keeps the last `keep` samples, every column the same length and aligned with its time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 50 }), fc.integer({ min: 1, max: 200 }), (keep, n) => {
        const h = new StateHistory(keep);
        for (let i = 0; i < n; i++) h.sample(snapshot(100 + i, i), i * 1000);
        const m = h.markets.get('BTC_USDT')!;
        const s = h.strategies.get('mm')!;
        const len = Math.min(keep, n);
        for (const col of Object.values(m)) expect(col).toHaveLength(len);
        for (const col of Object.values(s)) expect(col).toHaveLength(len);
        expect(m.t.at(-1)).toBe(n - 1);
        expect(m.mid.at(-1)).toBe(100 + n - 1);
        expect(m.ownBid.at(-1)).toBe(100 + n - 1 - 2); // the best own bid
        expect(m.ownAsk.at(-1)).toBeNull();
        expect(s.fills[0]).toBe(n - len);
      }),
    );
  });
});
