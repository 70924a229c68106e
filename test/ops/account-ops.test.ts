import { describe, expect, it } from 'vitest';
import type { AccountStatus } from '../../src/engine/account-risk.js';
import type { StatusSnapshot } from '../../src/engine/run-summary.js';
import { D } from '../../src/model/decimal.js';
import { AlertWatch } from '../../src/ops/alerts/alert-watch.js';
import type { Alert } from '../../src/ops/alerts/webhook-sender.js';
import { apiState } from '../../src/ops/dashboard/api-state.js';
import { StateHistory } from '../../src/ops/dashboard/state-history.js';
import { EventWatch } from '../../src/ops/event-watch.js';
import { VenueHealth } from '../../src/ops/health/venue-health.js';
import { DaemonMetrics } from '../../src/ops/metrics/daemon-metrics.js';
import type { OpsContext } from '../../src/ops/ops-context.js';
import { AlertsConfigSchema } from '../../src/settings/ops-config.js';
import { parsePrometheus, sumOf } from '../helpers/prometheus-text.js';

const halted: AccountStatus = {
  money: 'USDT',
  limits: { maxDrawdown: D(10), maxGrossNotional: D(5000) },
  equity: D('-6.5'),
  peak: D('3.5'),
  drawdown: D(10),
  day: '2024-03-01',
  dayStart: D(1),
  dailyLoss: D('7.5'),
  grossNotional: D('1234.5'),
  halt: { limit: 'max-drawdown', reason: 'account drawdown 10 USDT from the peak 3.5 reached the limit 10 (equity -6.5)', at: 5, restored: false },
};

const status = (account?: AccountStatus): StatusSnapshot => ({
  at: 0,
  markets: [],
  queueDepth: 0,
  unknownOrders: 0,
  rejections: {},
  ...(account ? { account } : {}),
});

const scrape = async (m: DaemonMetrics, s: StatusSnapshot) =>
  parsePrometheus(await m.scrape({ status: () => s, limiterStats: () => [], streamAges: () => [] }));

describe('account limits on the operations side', () => {
  it('/metrics: equity, peak, drawdown, day loss, gross and halted gauges under the money asset, halts counted by limit; no sample without risk.account', async () => {
    const m = new DaemonMetrics({ processMetrics: false });
    const off = await scrape(m, status());
    for (const name of ['bot_account_equity', 'bot_account_peak_equity', 'bot_account_drawdown', 'bot_account_halted', 'bot_account_halts_total'])
      expect(off.get(name)?.samples ?? [], name).toEqual([]);

    m.onEvent({ type: 'account-halt', at: 5, limit: 'max-drawdown', reason: halted.halt!.reason });
    const on = await scrape(m, status(halted));
    const money = { money: 'USDT' };
    expect(sumOf(on, 'bot_account_equity', money)).toBe(-6.5);
    expect(sumOf(on, 'bot_account_peak_equity', money)).toBe(3.5);
    expect(sumOf(on, 'bot_account_drawdown', money)).toBe(10);
    expect(sumOf(on, 'bot_account_daily_loss', money)).toBe(7.5);
    expect(sumOf(on, 'bot_account_gross_notional', money)).toBe(1234.5);
    expect(sumOf(on, 'bot_account_halted', money)).toBe(1);
    expect(sumOf(on, 'bot_account_halts_total', { limit: 'max-drawdown' })).toBe(1);
    const { halt: _, ...running } = halted;
    expect(sumOf(await scrape(m, status(running)), 'bot_account_halted', money)).toBe(0);
  });

  it('alerts: one account-limit alert for the halt, and not one loss-limit alert per strategy halted by it', () => {
    const sent: Alert[] = [];
    const cfg = AlertsConfigSchema.parse({ webhook: 'http://127.0.0.1:1/x' });
    expect(cfg.on).toContain('account-limit'); // on by default
    const watch = new AlertWatch(
      cfg,
      new VenueHealth(),
      (a) => sent.push(a),
      () => 0,
    );
    watch.onEvent({ type: 'risk-halt', at: 0, strategyId: 'a', reason: 'net PnL -6 reached the loss limit -5' }); // its own limit: alerted
    watch.onEvent({ type: 'account-halt', at: 1, limit: 'max-daily-loss', reason: 'account loss 10 USDT since ...' });
    watch.onEvent({ type: 'risk-halt', at: 1, strategyId: 'b', reason: 'account limit: account loss 10 USDT since ...' });
    watch.onEvent({ type: 'risk-halt', at: 1, strategyId: 'c', reason: 'account limit: account loss 10 USDT since ...' });
    expect(sent.map((a) => [a.kind, a.strategy ?? null])).toEqual([
      ['loss-limit', 'a'],
      ['account-limit', null],
    ]);
    expect(sent[1]).toMatchObject({
      message: expect.stringMatching(/^account limit max-daily-loss crossed: account loss 10 USDT/),
      details: { limit: 'max-daily-loss' },
    });
    const quiet: Alert[] = [];
    const only = new AlertWatch(
      AlertsConfigSchema.parse({ webhook: 'http://127.0.0.1:1/x', on: ['loss-limit'] }),
      new VenueHealth(),
      (a) => quiet.push(a),
      () => 0,
    );
    only.onEvent({ type: 'account-halt', at: 1, limit: 'max-drawdown', reason: 'r' });
    expect(quiet).toEqual([]);
  });

  it('the dashboard state carries the account line (figures as decimal strings, the limits, the halt and why); null without it', async () => {
    let s = status(halted);
    const events = new EventWatch(10, () => 0);
    events.onEvent({ type: 'account-halt', at: 5, limit: 'max-drawdown', reason: 'r' });
    const c: OpsContext = {
      runtime: { status: () => s, control: () => ({ ok: true, message: '' }) },
      metrics: new DaemonMetrics({ processMetrics: false }),
      venue: new VenueHealth(),
      events,
      history: new StateHistory(10),
      limiterStats: () => [],
      journalWritable: () => true,
      venueLabel: 'test',
      controlsOn: false,
      requestStop: () => {},
    };
    const state = await apiState(c);
    expect(state.account).toEqual({
      money: 'USDT',
      equity: '-6.5',
      peak: '3.5',
      drawdown: '10',
      day: '2024-03-01',
      dailyLoss: '7.5',
      grossNotional: '1234.5',
      limits: { maxDrawdown: '10', maxDailyLoss: null, maxGrossNotional: '5000' },
      halt: { limit: 'max-drawdown', reason: halted.halt!.reason, restored: false },
    });
    expect(state.events).toEqual([{ at: 0, type: 'account-halt', text: 'ACCOUNT HALTED (max-drawdown): r' }]);
    s = status();
    expect((await apiState(c)).account).toBeNull();
  });
});
