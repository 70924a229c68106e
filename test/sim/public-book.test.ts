import { describe, expect, it } from 'vitest';
import { fmt } from '../../src/model/decimal.js';
import { levels, M, makeExchange, place } from './exchange-fixture.js';

describe('public book', () => {
  it('aggregates levels on a coarser grid (asks up, bids down) and honours the limit', () => {
    const { ex } = makeExchange();
    for (const p of ['30000.01', '30000.04', '30000.1', '30001.55']) place(ex, 'a', 'sell', '0.1', p);
    for (const p of ['29999.99', '29999.91', '29999.89']) place(ex, 'b', 'buy', '0.1', p);
    expect(levels(ex).asks).toEqual(['30000.01x0.1', '30000.04x0.1', '30000.1x0.1', '30001.55x0.1']);
    const l1 = ex.book(M, { level: 1 });
    expect(l1.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['30000.1x0.3', '30001.6x0.1']);
    expect(l1.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['29999.9x0.2', '29999.8x0.1']);
    const l3 = ex.book(M, { level: 3, limit: 1 });
    // Level 3 = a grid of 10^3 price steps (10 USDT).
    expect(l3.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['30010x0.4']);
    expect(l3.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['29990x0.3']);
    expect(ex.book(M, { limit: 2 }).asks).toHaveLength(2);
    expect(ex.book(M).timestamp).toBe(1_700_000_000);
  });
});
