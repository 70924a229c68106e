import { describe, expect, it } from 'vitest';
import { AlertWatch } from '../../src/ops/alerts/alert-watch.js';
import type { Alert } from '../../src/ops/alerts/webhook-sender.js';
import { VenueHealth } from '../../src/ops/health/venue-health.js';
import { DaemonMetrics } from '../../src/ops/metrics/daemon-metrics.js';
import { AlertsConfigSchema } from '../../src/settings/ops-config.js';
import { LyingVenue, market, quoter, rig } from '../engine/market-data-rig.js';

/** The sample lines of one metric in the Prometheus text. */
const samples = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));

describe('held books and stale cancels on the ops surface (a runtime on virtual time feeding metrics and alerts)', () => {
  it('counts held books per market and reason, stale cancels per market, and sends the stale-data alert', async () => {
    const metrics = new DaemonMetrics({ processMetrics: false });
    const alerts: Alert[] = [];
    const watch = new AlertWatch(
      AlertsConfigSchema.parse({ webhook: 'http://127.0.0.1:1/x' }),
      new VenueHealth(),
      (a) => alerts.push(a),
      () => 0,
    );
    const venue = new LyingVenue(market, '30000', '30010');
    const r = rig(venue, [{ id: 'q', definition: quoter(), params: {}, market: market.name }]);
    r.runtime.events$.subscribe((e) => {
      metrics.onEvent(e);
      watch.onEvent(e);
    });
    await r.runtime.start();
    await r.advance(500);
    venue.setBook('300000', '300010'); // two polls at 10x: held as a jump
    await r.advance(200);
    venue.setBook('30000', '30010');
    await r.advance(300);
    venue.setBook('30000', '0.01'); // crossed until stale (5 s)
    await r.advance(5_500);

    const text = await metrics.registry.metrics();
    expect(samples(text, 'bot_books_held_total')).toEqual([
      expect.stringMatching(/^bot_books_held_total\{market="BTC_USDT",reason="jump"\} 2$/),
      expect.stringMatching(/^bot_books_held_total\{market="BTC_USDT",reason="crossed"\} 5\d$/),
    ]);
    expect(samples(text, 'bot_stale_cancels_total')).toEqual(['bot_stale_cancels_total{market="BTC_USDT"} 2']);
    expect(samples(text, 'bot_market_data_stale')).toEqual(['bot_market_data_stale{market="BTC_USDT"} 1']);
    expect(alerts.map((a) => [a.kind, a.market, a.message])).toEqual([
      ['stale-data', 'BTC_USDT', 'BTC_USDT: no fresh sane orderbook data, new orders refused until it returns; 2 resting orders are being cancelled'],
    ]);
    await r.runtime.stop();
  });
});
