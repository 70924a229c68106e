import { describe, expect, it } from 'vitest';
import { D, Decimal } from '../../src/model/decimal.js';
import { chromiumPath, launchChromium } from '../helpers/chromium.js';
import { parsePrometheus, sumOf } from '../helpers/prometheus-text.js';
import { startOpsDaemon, waitFor } from '../helpers/ops-daemon.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * An account limit crossed in a daemon on the sim (in this process, ops surface on): what an operator sees of it in
 * /metrics, /api/state, the webhook and (when Chromium is installed) the dashboard page.
 */
describe('an account halt on the operations surface (daemon on the sim, http and alerts on)', () => {
  it('counts it, shows equity, peak and the halt, alerts once as account-limit, and the dashboard shows why', async () => {
    const hook = await webhookReceiver(() => 200);
    const d = await startOpsDaemon({
      // tiny: the first fee alone takes the equity under its peak by more than this
      extra: ['risk: { account: { maxDrawdown: 0.001 } }', 'alerts:', `  webhook: ${hook.url}`, '  maxPerMinute: 20'],
    });
    try {
      const ex = d.sim.exchange;
      const alice = ex.accountByName('alice')!.id;
      // another account sells through the bids down to the market maker's own bid, so it fills now, whatever the flow does
      await waitFor('the market maker quoting', () => ex.openOrders(d.accountId, { market: 'BTC_USDT' }).some((o) => o.side === 'buy'), 30_000, 100);
      const bid = ex
        .openOrders(d.accountId, { market: 'BTC_USDT' })
        .filter((o) => o.side === 'buy')
        .sort((a, b) => b.price.cmp(a.price))[0]!;
      const depth = ex
        .book('BTC_USDT', { limit: 100 })
        .bids.filter((l) => l.price.gte(bid.price))
        .reduce((sum, l) => sum.plus(l.amount), D(0));
      ex.placeLimit(alice, { market: 'BTC_USDT', side: 'sell', amount: Decimal.min(depth, D(9)), price: bid.price, ioc: true });

      await waitFor('the account halt in the journal', () => d.records().some((r) => r.type === 'account-halt'), 30_000, 100);
      const records = d.records();
      const at = records.findIndex((r) => r.type === 'account-halt');
      expect(records[at]).toMatchObject({ type: 'account-halt', limit: 'max-drawdown' });
      expect(records[at + 1]).toMatchObject({ type: 'halt', strategyId: 'mm', reason: expect.stringMatching(/^account limit: account drawdown /) });
      await waitFor('no open order of the account', () => ex.openOrders(d.accountId).length === 0, 15_000, 100);

      const metrics = parsePrometheus(await (await fetch(`${d.url}/metrics`)).text());
      expect(sumOf(metrics, 'bot_account_halts_total', { limit: 'max-drawdown' })).toBe(1);
      expect(sumOf(metrics, 'bot_account_halted', { money: 'USDT' })).toBe(1);
      expect(sumOf(metrics, 'bot_account_drawdown', { money: 'USDT' })).toBeGreaterThanOrEqual(0.001);
      expect(metrics.get('bot_account_peak_equity')?.samples).toHaveLength(1);
      expect(sumOf(metrics, 'bot_strategy_halted', { strategy: 'mm' })).toBe(1);

      const state = (await (await fetch(`${d.url}/api/state`)).json()) as {
        account: { halt: { limit: string; reason: string; restored: boolean }; peak: string };
      };
      expect(state.account.halt).toMatchObject({ limit: 'max-drawdown', restored: false, reason: expect.stringMatching(/^account drawdown /) });

      await waitFor('the account-limit alert', () => hook.accepted.some((a) => a.kind === 'account-limit'), 15_000, 100);

      if (chromiumPath() !== undefined) {
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          const problems: string[] = [];
          page.on('pageerror', (e) => problems.push(e.message));
          await page.goto(`${d.url}/`);
          const line = page.locator('#account');
          await line.locator('[data-testid="account-halt"]').waitFor({ timeout: 15_000 });
          expect(await line.isVisible()).toBe(true);
          expect(await line.textContent()).toMatch(/account \(USDT\) equity -?[\d.]+ · peak -?[\d.]+ · drawdown [\d.]+ \/ 0\.001/);
          expect(await line.locator('[data-testid="account-halt"]').textContent()).toMatch(
            /^HALTED \(max-drawdown\): account drawdown .* after a restart they start paused/,
          );
          await page.locator('section.strategy[data-strategy="mm"] [data-testid="state"]', { hasText: 'HALTED' }).waitFor({ timeout: 5000 });
          expect(problems).toEqual([]);
        } finally {
          await browser.close();
        }
      }
      // after the stop (it drains the alert sender) a duplicate or a loss-limit alert would have arrived
      await d.stop();
      await waitFor('the stopping alert', () => hook.accepted.some((a) => a.kind === 'daemon-stopping'), 10_000, 100);
      expect(hook.accepted.filter((a) => a.kind === 'account-limit' || a.kind === 'loss-limit').map((a) => a.kind)).toEqual(['account-limit']);
    } finally {
      await d.stop();
      await hook.close();
    }
  }, 120_000);
});
