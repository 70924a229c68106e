import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { budgetOf, DEFAULT_INTERVALS, planPolling } from '../../src/streams/polling-plan.js';
import { RATE_LIMITS } from '../../src/venue/wire.js';

describe('planPolling', () => {
  it('keeps the defaults when they fit, and reports the headroom per bucket', () => {
    const plan = planPolling({ markets: ['BTC_USDT', 'ETH_USDT'] });
    expect(plan.intervals).toEqual(DEFAULT_INTERVALS);
    const line = (b: string) => plan.budget.find((l) => l.bucket === b)!;
    expect(line('orderbook')).toEqual({ bucket: 'orderbook', limit: 600, windowMs: 10_000, polling: 20, headroom: 580 });
    expect(line('public').polling).toBe(20);
    expect(line('tradeBalance').polling).toBe(5);
    expect(line('orders').polling).toBe(10);
    expect(line('executedHistory').polling).toBe(20);
  });

  it('slows the defaults down to fit many markets, keeping the reserve free', () => {
    // 50 markets on orderbook 600/10 s with 30 % reserve: at most 420 polls per 10 s → every 1191 ms or slower.
    const plan = planPolling({ markets: Array.from({ length: 50 }, (_, i) => `M${i}_USDT`) });
    expect(plan.intervals.bookMs).toBe(1191);
    expect(plan.budget.find((l) => l.bucket === 'orderbook')!.polling).toBeLessThanOrEqual(420);
  });

  it('rejects an explicit wish that cannot fit, saying what would', () => {
    const plan = () => planPolling({ markets: ['A_B', 'C_D', 'E_F'], wishes: { bookMs: 50 }, reserve: 0.2 });
    expect(plan).toThrow(ConfigError);
    expect(plan).toThrow(
      /order book every 50 ms on 3 market\(s\) needs 600 requests per 10 s, but orderbook allows 600 of which 480 are for polling \(reserve 20 % for orders\); use bookMs >= 63/,
    );
    expect(planPolling({ markets: ['A_B', 'C_D', 'E_F'], wishes: { bookMs: 63 }, reserve: 0.2 }).intervals.bookMs).toBe(63);
  });

  it('rejects too many markets for the slowest acceptable interval, bad reserves and bad wishes', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `M${i}_USDT`);
    expect(() => planPolling({ markets: many })).toThrow(/poll fewer markets/);
    expect(() => planPolling({ markets: ['A_B'], reserve: 1 })).toThrow(/reserve/);
    expect(() => planPolling({ markets: [] })).toThrow(/no markets/);
    expect(() => planPolling({ markets: ['A_B'], wishes: { dealsMs: 10.5 } })).toThrow(/positive integer/);
  });

  it('counts duplicate markets once', () => {
    expect(planPolling({ markets: ['A_B', 'A_B'] }).budget.find((l) => l.bucket === 'orderbook')!.polling).toBe(10);
  });

  it('property: a plan never uses more than (1 − reserve) of any bucket, and honours every wish it accepts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.record({
          bookMs: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
          dealsMs: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
        }),
        (m, reserve, wishes) => {
          const markets = Array.from({ length: m }, (_, i) => `M${i}_X`);
          const clean = Object.fromEntries(Object.entries(wishes).filter(([, v]) => v !== undefined));
          let plan;
          try {
            plan = planPolling({ markets, reserve, wishes: clean });
          } catch (error) {
            expect(error).toBeInstanceOf(ConfigError);
            return;
          }
          for (const line of plan.budget) expect(line.polling).toBeLessThanOrEqual(Math.floor(line.limit * (1 - reserve)));
          for (const [k, v] of Object.entries(clean)) expect(plan.intervals[k as 'bookMs']).toBe(v);
          expect(budgetOf(plan.intervals, m, RATE_LIMITS)).toEqual(plan.budget);
        },
      ),
      { numRuns: 500 },
    );
  });
});
