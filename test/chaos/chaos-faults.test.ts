import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runChaos } from '../../src/chaos/run-chaos.js';

/**
 * The chaos harness in a small fixed-seed configuration (issue 15): faults on every private endpoint, two real
 * daemons (bin/bot.js) SIGKILLed and restarted, the journal-vs-venue audit and the secret scan.
 * The three runs (faults, malformed, lying) are three files so that the pool runs them side by side: each mostly
 * waits on its daemons and the wall clock. The full runs are `npm run chaos -- --orders 10000 --kills 50`,
 * `--malformed`, `--lying` (docs/chaos.md).
 */
const dir = mkdtempSync(join(tmpdir(), 'chaos-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chaos harness (fixed seed, small)', () => {
  it('faults + SIGKILL/restart: zeros in every loss column, no rule reject, no secret written', async () => {
    const result = await runChaos({ mode: 'faults', orders: 120, kills: 2, seed: 15, out: join(dir, 'faults'), settleMs: 2000 });
    expect(result.notes).toEqual([]);
    expect(result.audits.flatMap((a) => [...a.duplicates, ...a.lost, ...a.unknownLeft, ...a.fillsMissing, ...a.balanceDiff])).toEqual([]);
    expect(result.summary).toMatchObject({
      duplicates: 0,
      lost: 0,
      unknownLeft: 0,
      fillsMissing: 0,
      balanceDiff: 0,
      ruleRejects: 0,
      restarts: 2,
      secretHits: 0,
    });
    expect(result.summary).toMatchObject({ overfills: 0, phantomCancels: 0, bandBreaches: 0, staleFills: 0 });
    expect(result.line).toMatch(/, overfills 0, phantom-cancels 0, band-breaches 0, stale-fills 0$/);
    expect(result.summary.orders).toBeGreaterThanOrEqual(120);
    expect(result.passed).toBe(true);
    const report = JSON.parse(readFileSync(result.reportPath, 'utf8')) as { faults: Record<string, number> };
    // faults really happened on order creation and cancel
    expect(Object.keys(report.faults).some((k) => k.startsWith('orderNew:'))).toBe(true);
    expect(Object.keys(report.faults).some((k) => k.startsWith('orderCancel:'))).toBe(true);
  }, 120_000);
});
