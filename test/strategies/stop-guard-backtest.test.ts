import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { backtestExample, rulesOrVenueRejections } from './backtest-run.js';

describe('stop guard in a backtest on the sample data', () => {
  it('guards 0.02 BTC above the baseline with stop-limit orders, with 0 rule and 0 venue rejections', async () => {
    const run = await backtestExample('stop-guard', { balances: { BTC: '1', USDT: '50000' }, params: { baseline: '0.98' } });
    expect(rulesOrVenueRejections(run)).toEqual({});
    for (const lane of run.report.lanes) {
      expect(lane.orders.accepted).toBeGreaterThanOrEqual(1);
      // a fired stop sells at most the guarded position, never into the baseline
      const sold = lane.fills.reduce((sum, f) => (f.side === 'sell' ? sum.plus(D(f.amount)) : sum), D(0));
      expect(sold.lte(D('0.02'))).toBe(true);
      expect(lane.fills.every((f) => f.side === 'sell')).toBe(true);
    }
  });
});
