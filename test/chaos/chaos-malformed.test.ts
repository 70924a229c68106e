import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runChaos } from '../../src/chaos/run-chaos.js';

/**
 * The chaos harness against a malformed venue (garbage in well-formed and broken JSON), fixed seed.
 * The three runs (faults, malformed, lying) are three files so that the pool runs them side by side: each mostly
 * waits on its daemons and the wall clock. The full runs are `npm run chaos -- --orders 10000 --kills 50`,
 * `--malformed`, `--lying` (docs/chaos.md).
 */
const dir = mkdtempSync(join(tmpdir(), 'chaos-malformed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * 8 s of garbage while trading (runChaos counts from the daemons' first orders), not 12 s from the start: the claims
 * need more than 20 garbage answers and an ERR_VENUE_MALFORMED logged; 8 s runs (seed 15) sent ~65 garbage answers of
 * every kind and logged 15-48 ERR_VENUE_MALFORMED per daemon.
 */
describe('chaos harness (fixed seed, small)', () => {
  it('malformed venue: garbage answers arrive, the daemons keep running and log them as typed errors, nothing garbage-driven', async () => {
    const result = await runChaos({ mode: 'malformed', orders: 0, kills: 0, seed: 15, durationMs: 8_000, out: join(dir, 'malformed'), settleMs: 1000 });
    expect(result.notes).toEqual([]);
    expect(result.passed).toBe(true);
    const report = JSON.parse(readFileSync(result.reportPath, 'utf8')) as {
      malformed: { garbage: Record<string, number>; daemonsAlive: boolean; accounts: Array<{ ordersOffMarket: number; typedErrors: Record<string, number> }> };
    };
    expect(report.malformed.daemonsAlive).toBe(true);
    expect(Object.values(report.malformed.garbage).reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
    expect(report.malformed.accounts.some((a) => (a.typedErrors.ERR_VENUE_MALFORMED ?? 0) > 0)).toBe(true);
    expect(report.malformed.accounts.every((a) => a.ordersOffMarket === 0)).toBe(true);
    expect(result.summary).toMatchObject({ overfills: 0, phantomCancels: 0, bandBreaches: 0, staleFills: 0 });
  }, 120_000);
});
