import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runParity } from '../../../backtest/parity/run-parity.js';
import { chromiumPath, launchChromium } from '../../helpers/chromium.js';
import { sessionOnce } from './session-fixture-once.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pixels drawn on a canvas (alpha > 0). */
const INK = (c: unknown): number => {
  const canvas = c as {
    width: number;
    height: number;
    getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
  };
  const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) ink++;
  return ink;
};

describe.skipIf(chromiumPath() === undefined)('parity.html in a real Chromium (Playwright)', () => {
  it('opens offline, shows the summary line and the figures of parity.json, and draws its three charts', async () => {
    // the session cli-parity reads too, made once per run
    const session = await sessionOnce(dir, { snapshots: 90 });
    const run = await runParity({ journal: session.journal, data: [session.recording], out: join(dir, 'out'), fit: true, env: {} });
    const r = run.report;
    expect(r.live.fills).toBeGreaterThan(0);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('request', (q) => requests.push(q.url()));
      await page.goto(pathToFileURL(run.htmlPath).href);
      await page.locator('canvas#quality[data-points]').waitFor({ timeout: 20_000 });

      expect((await page.locator('#summary').textContent())?.trim()).toBe(r.summary.line);
      for (const lane of r.lanes)
        expect(await page.locator(`#lanes [data-lane="${lane.assumption}"]`).getAttribute('data-matched')).toBe(String(lane.fills.matched));
      expect(await page.locator('#live-pnl').textContent()).toBe(r.live.pnl.net);
      expect(await page.locator('#band').getAttribute('data-inside')).toBe(String(r.band.inside));
      expect(await page.locator('#fill-model-line').textContent()).toContain(`decreaseTrades ${r.fillModel.decreaseTrades}`);
      expect(await page.locator('#fit').textContent()).toContain(`queueAhead ${r.fit!.best.queueAhead}, decreaseTrades ${r.fit!.best.decreaseTrades}`);
      expect(await page.locator('#fills tr').count()).toBe(r.quality.fills.length + 1);
      expect(await page.locator('#orders tr').count()).toBe(r.orders.length + 1);
      for (const id of ['price', 'errors', 'quality']) {
        expect(await page.locator(`canvas#${id}`).evaluate(INK), `ink on #${id}`).toBeGreaterThan(500);
      }
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]); // self-contained
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
