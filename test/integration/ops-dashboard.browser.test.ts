import { describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium } from '../helpers/chromium.js';
import { parsePrometheus, sumOf } from '../helpers/prometheus-text.js';
import { OPS_TOKEN, opsPost, startOpsDaemon, waitFor } from '../helpers/ops-daemon.js';

async function metricsOf(url: string) {
  return parsePrometheus(await (await fetch(`${url}/metrics`)).text());
}

describe.skipIf(chromiumPath() === undefined)('the dashboard in a real Chromium (Playwright), daemon trading on the sim', () => {
  it('draws the charts, shows what /metrics says, pauses (the sim sees no order) and resumes; a control without the token is 401', async () => {
    const d = await startOpsDaemon();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      // the one expected failure is the refused control below (401)
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('401') && problems.push(`console: ${m.text()}`));
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${d.url}/`);
      const card = page.locator('section.strategy[data-strategy="mm"]');
      await card.waitFor({ timeout: 20_000 });

      // trading, and the charts draw points (uPlot's canvases, fed from /api/state's history)
      await waitFor(
        'orders and a fill',
        () => d.records().filter((r) => r.type === 'fill').length >= 1 && d.records().filter((r) => r.type === 'submit').length >= 4,
        60_000,
        200,
      );
      await waitFor(
        'chart points',
        async () =>
          Number(await card.locator('[data-chart="price"]').getAttribute('data-points')) >= 3 &&
          Number(await card.locator('[data-chart="pnl"]').getAttribute('data-points')) >= 3,
        20_000,
        200,
      );
      expect(await card.locator('[data-chart="price"] canvas').count()).toBe(1);
      const drawn = await card.locator('[data-chart="price"] canvas').evaluate((c) => {
        const canvas = c as unknown as {
          width: number;
          height: number;
          getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
        };
        const ctx = canvas.getContext('2d');
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let ink = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) ink++;
        return ink;
      });
      expect(drawn).toBeGreaterThan(100); // series were stroked on the canvas

      // a control without the token: 401, and nothing changes (no control record, strategy still quoting)
      const refused = await opsPost(d.url, '/api/strategies/mm/pause', { cancelOrders: true }, null);
      expect(refused.status).toBe(401);
      expect(d.records().some((r) => r.type === 'control')).toBe(false);
      expect(sumOf(await metricsOf(d.url), 'bot_strategy_paused', { strategy: 'mm' })).toBe(0);
      // the page without a token says so too
      await card.locator('button[data-action="pause-cancel"]').click();
      await page.locator('#message', { hasText: '401' }).waitFor({ timeout: 5000 });
      expect(d.records().some((r) => r.type === 'control')).toBe(false);

      // with the token: pause and cancel; the sim sees no order of this account while paused
      await page.fill('#token', OPS_TOKEN);
      await page.locator('#token').dispatchEvent('change');
      await card.locator('button[data-action="pause-cancel"]').click();
      await card.locator('[data-testid="state"]', { hasText: 'PAUSED' }).waitFor({ timeout: 10_000 });
      const pausedAt = Date.now();
      await waitFor('no live order', async () => sumOf(await metricsOf(d.url), 'bot_strategy_open_orders', { strategy: 'mm' }) === 0, 15_000, 200);
      // a market maker that was not paused would quote again on the next book: let the daemon poll eight of them
      const quietAt = Date.now();
      await waitFor(
        'eight book polls while paused',
        () => d.access.filter((a) => a.at >= quietAt && a.entry.endpoint === 'orderbook').length >= 8,
        20_000,
        100,
      );
      expect(d.ordersSeenSince(pausedAt), 'orders the sim received while paused').toBe(0);
      expect(d.records().filter((r) => r.type === 'control' && r.action === 'pause' && r.cancelOrders === true)).toHaveLength(1);

      // quiet now: the numbers on the page match /metrics (once the page refreshed after the last change)
      const shown = async (id: string) => (await card.locator(`[data-testid="${id}"]`).textContent())!.trim();
      await waitFor(
        'the page showing what /metrics says',
        async () => {
          const now = await metricsOf(d.url);
          return (
            Number(await shown('submitted')) === sumOf(now, 'bot_orders_submitted_total', { strategy: 'mm' }) &&
            Number(await shown('fills')) === sumOf(now, 'bot_fills_total', { strategy: 'mm' }) &&
            Number(await shown('open-orders')) === sumOf(now, 'bot_strategy_open_orders', { strategy: 'mm' })
          );
        },
        15_000,
        200,
      );
      const m = await metricsOf(d.url);
      expect(Number(await shown('submitted'))).toBe(sumOf(m, 'bot_orders_submitted_total', { strategy: 'mm' }));
      expect(Number(await shown('fills'))).toBe(sumOf(m, 'bot_fills_total', { strategy: 'mm' }));
      expect(Number(await shown('open-orders'))).toBe(sumOf(m, 'bot_strategy_open_orders', { strategy: 'mm' }));
      expect(Number(await shown('inventory'))).toBeCloseTo(sumOf(m, 'bot_strategy_inventory', { strategy: 'mm' }), 9);
      expect(Number(await shown('realised'))).toBeCloseTo(sumOf(m, 'bot_strategy_realised_pnl', { strategy: 'mm' }), 6);

      // resume: orders come back
      const resumedAt = Date.now();
      await card.locator('button[data-action="resume"]').click();
      await card.locator('[data-testid="state"]', { hasText: 'running' }).waitFor({ timeout: 10_000 });
      await waitFor('orders after resume', () => d.ordersSeenSince(resumedAt) > 0, 20_000, 100);
      expect(d.records().filter((r) => r.type === 'control' && r.action === 'resume')).toHaveLength(1);
      // the last events list shows the controls
      await page.locator('#events li[data-type="control"]').first().waitFor({ timeout: 5000 });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await d.stop();
    }
  }, 180_000);
});
