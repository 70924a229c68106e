import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { backtestExample, rulesOrVenueRejections } from './backtest-run.js';

describe('twap in a backtest on the sample data', () => {
  it('works config/twap.yaml in slices with 0 rule and 0 venue rejections, and buys exactly the total', async () => {
    const run = await backtestExample('twap', { balances: { BTC: '1', USDT: '50000' } });
    expect(rulesOrVenueRejections(run)).toEqual({});
    for (const lane of run.report.lanes) {
      expect(lane.orders.accepted).toBeGreaterThanOrEqual(2);
      expect(lane.fills.every((f) => f.side === 'buy')).toBe(true);
      // the sample's 8 minutes cover the 5-minute schedule: the total is bought, to the last decimal
      expect(lane.fills.reduce((sum, f) => sum.plus(D(f.amount)), D(0)).toFixed()).toBe('0.02');
    }
  });
});
