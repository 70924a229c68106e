import { describe, expect, it } from 'vitest';
import { backtestExample, rulesOrVenueRejections } from './backtest-run.js';

describe('grid in a backtest on the sample data', () => {
  it('runs config/grid.yaml with 0 rule and 0 venue rejections, trading both sides', async () => {
    const run = await backtestExample('grid', { balances: { BTC: '1', USDT: '50000' } });
    expect(rulesOrVenueRejections(run)).toEqual({});
    for (const lane of run.report.lanes) {
      expect(lane.orders.accepted).toBeGreaterThanOrEqual(10); // the grid's levels
      expect(lane.fills.length).toBeGreaterThan(0); // the sample's mid climbs ~150 USDT through the sells
    }
  });
});
