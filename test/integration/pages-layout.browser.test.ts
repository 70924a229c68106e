import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktestFromConfig } from '../../backtest/run-from-config.js';
import { writeSweep } from '../backtest/sweep/sweep-fixture.js';
import { chromiumPath, launchChromium } from '../helpers/chromium.js';
import { startOpsDaemon, waitFor } from '../helpers/ops-daemon.js';

const VIEWPORT = { width: 1400, height: 900 };
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** What sticks out of the page: its scroll width against the window, and every table wider than the window. */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; wideTables: string[] }> {
  // browser code as text: this project's type check has no DOM library
  return page.evaluate(`({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    wideTables: [...document.querySelectorAll('table')]
      .filter((t) => t.getBoundingClientRect().right > window.innerWidth)
      .map((t) => (t.className || 'table') + ' ' + Math.round(t.getBoundingClientRect().right) + ' px'),
  })`);
}

function bot(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/bot.js', ...args], { timeout: 170_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
    );
  });
}

describe.skipIf(chromiumPath() === undefined)('pages a person reads, in a real Chromium at 1400 px', () => {
  // one Chromium for both tests (a launch and close is ~0.5 s of CPU), a fresh page in each
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  it('the backtest report and sweep.html: no table wider than the page; the report has its fill table, the sweep its objective once and tick labels on its plots', async () => {
    const { dir, file } = writeSweep(
      `space:\n  strategies[0].params.spread: { values: ["0.0004", "0.0008"] }\n  strategies[0].params.levels: { values: [1, 3] }\nsampler: { kind: grid }`,
    );
    cleanup.push(dir);
    const sweep = await bot(['sweep', file, '--workers', '1', '--no-progress']);
    expect(sweep.stderr).toBe('');
    expect(sweep.code).toBe(0);
    const run = await runBacktestFromConfig({ configFile: 'config/backtest.yaml', out: join(dir, 'report'), parallelLanes: false });
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(pathToFileURL(run.htmlPath).href);
      expect(await overflow(page)).toEqual({ scrollWidth: VIEWPORT.width, innerWidth: VIEWPORT.width, wideTables: [] });
      const fillRows = page.locator('table.fills tbody tr');
      expect(await fillRows.count()).toBe(run.report.lanes.reduce((n, l) => n + l.fills.length, 0));
      // a row: time, lane, side, price at the market's 2 decimals, amount at its 6, fee at 2, maker/taker
      expect((await fillRows.first().locator('td').allTextContents()).map((t) => t.trim())).toEqual([
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/),
        expect.stringMatching(/^(optimistic|pessimistic)$/),
        expect.stringMatching(/^(buy|sell)$/),
        expect.stringMatching(/^\d+\.\d{2}$/),
        expect.stringMatching(/^\d+\.\d{6}$/),
        expect.stringMatching(/^\d+\.\d{2}$/),
        expect.stringMatching(/^(maker|taker)$/),
      ]);
      // 8 minutes of data: no annualised ratios, and the page says why the lanes can cross
      const text = await page.locator('body').innerText();
      expect(text).toMatch(/Sharpe \(annualised\)\s+n\/a\s+n\/a/);
      expect(text).toContain('the pessimistic lane can end above the optimistic one');

      await page.goto(pathToFileURL(join(dir, 'out', 'sweep.html')).href);
      expect(await overflow(page)).toEqual({ scrollWidth: VIEWPORT.width, innerWidth: VIEWPORT.width, wideTables: [] });
      const heads = (await page.locator('table.best th').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      expect(heads.filter((h) => /objective/.test(h))).toEqual(['pessimistic tradingPnl (objective)']);
      expect(heads.filter((h) => /tradingPnl/.test(h))).toHaveLength(2); // each lane's once, no separate objective column
      // each scatter plot labels its axes: the grid's values under x, several round values along y
      const plots = page.locator('figure svg');
      expect(await plots.count()).toBe(2);
      const labels = async (i: number) => (await plots.nth(i).locator('text').allTextContents()).map((t) => t.trim());
      expect(await labels(0)).toEqual(expect.arrayContaining(['0.0004', '0.0008', 'spread', 'pessimistic.tradingPnl']));
      expect(await labels(1)).toEqual(expect.arrayContaining(['1', '3', 'levels']));
      expect((await labels(0)).filter((t) => /^-?\d+(\.\d+)?$/.test(t)).length).toBeGreaterThanOrEqual(2 + 3);
    } finally {
      await page.close();
    }
  }, 180_000);

  it('the dashboard: y-axis labels are whole prices and fit their axis, times on one line, event numbers not clipped, the PnL lines told apart, no table wider than the page', async () => {
    const d = await startOpsDaemon();
    const page = await browser.newPage({ viewport: VIEWPORT });
    try {
      await page.goto(`${d.url}/`);
      const card = page.locator('section.strategy[data-strategy="mm"]');
      await card.waitFor({ timeout: 20_000 });
      const price = card.locator('[data-chart="price"]');
      await waitFor(
        'chart points and 12 events',
        async () => Number(await price.getAttribute('data-points')) >= 3 && (await page.locator('#events li').count()) >= 12,
        60_000,
        200,
      );

      // the sim's BTC_USDT trades near 30,000: labels like "30,020", drawn right of the canvas's left edge
      const yLabels = JSON.parse((await price.getAttribute('data-y-labels'))!) as string[];
      expect(yLabels.length).toBeGreaterThanOrEqual(2);
      for (const label of yLabels) {
        expect(label).toMatch(/^\d{2},\d{3}$/);
        expect(Number(label.replace(',', ''))).toBeGreaterThan(20_000);
      }
      const labelPx = Number(await price.getAttribute('data-y-label-px'));
      const plotLeft = Number(await page.evaluate(`document.querySelector('section.strategy [data-chart="price"] .u-over').offsetLeft`));
      expect(labelPx).toBeGreaterThan(0);
      expect(plotLeft, 'the plot starts right of the y labels and their ticks').toBeGreaterThanOrEqual(labelPx + 10);
      // the time axis: one line per tick (uPlot wrote the date on a second line, over the next label)
      const xLabels = JSON.parse((await price.getAttribute('data-x-labels'))!) as string[];
      expect(xLabels.length).toBeGreaterThanOrEqual(2);
      for (const label of xLabels) expect(label).toMatch(/^\d\d:\d\d:\d\d$/);

      // each event's number ("10.", "11.", ...) fits left of its line inside the list
      const clipped = await page.evaluate(`(() => {
        const ol = document.querySelector('#events');
        const ctx = document.createElement('canvas').getContext('2d');
        const left = ol.getBoundingClientRect().left;
        return [...ol.querySelectorAll('li')].flatMap((li, i) => {
          ctx.font = getComputedStyle(li).font;
          const need = ctx.measureText((i + 1) + '. ').width;
          return li.getBoundingClientRect().left - left < need ? [i + 1] : [];
        });
      })()`);
      expect(clipped).toEqual([]);

      // net PnL and realised − fees coincide while flat: a solid and a dashed line (uPlot's legend markers show it)
      const markers = await page.evaluate<
        Array<{ label: string; border: string }>
      >(`[...document.querySelectorAll('[data-chart="pnl"] .u-legend .u-series')].map((r) => ({
        label: r.querySelector('.u-label') ? r.querySelector('.u-label').textContent : '',
        border: r.querySelector('.u-marker') ? r.querySelector('.u-marker').style.borderStyle : '',
      }))`);
      const style = (label: string) => markers.find((m) => m.label === label)?.border;
      expect(style('net PnL')).toBe('solid');
      expect(style('realised − fees')).toBe('dashed');

      expect(await overflow(page)).toEqual({ scrollWidth: VIEWPORT.width, innerWidth: VIEWPORT.width, wideTables: [] });
      expect(readFileSync(d.logPath, 'utf8')).not.toContain('"level":50');
    } finally {
      await page.close();
      await d.stop();
    }
  }, 180_000);
});
