import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { generatedBtcUsdtMarket } from './fixtures.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bt-interrupt-'));
const data = join(tmp, 'long.jsonl.gz');
const config = join(tmp, 'backtest.yaml');
const START = 1_700_000_000_000;
const SNAPSHOTS = 30_000;
const market = generatedBtcUsdtMarket();

beforeAll(async () => {
  // long enough (~8 h at 1 s) that the replay is surely still running when the first progress line is out, and large
  // enough (20 levels a side: ~7.7 MB, 32 MB unzipped) that one comes: progress is the compressed bytes read, and the
  // reader runs ahead of the replay by about 2 MB of it (8 MiB of unzipped read-ahead), so the first report is at most
  // ~30 %; with 5 levels (4.4 MB, 60,000 snapshots) a loaded machine's reader sometimes reached the end before the first
  // report, no line came, no SIGINT was sent and the run ended whole (exit 0). 60,000 snapshots (15 MB) cost ~1.5 s
  // more of CPU to generate.
  await generateRecording({
    out: data,
    market,
    snapshots: SNAPSHOTS,
    intervalMs: 1000,
    startT: START,
    startTicks: 3_000_000,
    levels: 20,
    stepTicks: 20,
    seed: 4,
  });
  writeFileSync(
    config,
    [
      `data: [${JSON.stringify(data)}]`,
      'balances: { BTC: "1", USDT: "50000" }',
      'fills: [optimistic, pessimistic]',
      'strategies:',
      '  - { id: mm, use: market-maker, market: BTC_USDT, params: { spread: "0.003", size: "0.01", maxInventory: "0.05" } }',
      '',
    ].join('\n'),
  );
}, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Stopped {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `bot backtest` as a child, sent SIGINT once its first progress line (`replay 10%`) is out. */
function interrupted(out: string, lanes: '--sequential' | '--parallel'): Promise<Stopped> {
  const child = spawn(process.execPath, ['bin/bot.js', 'backtest', config, '--out', out, '--no-cache', lanes], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
    if (!sent && /replay \d+%/.test(stderr)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

interface Report {
  readonly partial: boolean;
  readonly start: string;
  readonly end: string;
  readonly snapshots: number;
  readonly lanes: ReadonlyArray<{ readonly assumption: string }>;
}

describe('bot backtest: Ctrl-C', () => {
  for (const lanes of ['--sequential', '--parallel'] as const) {
    it(`${lanes}: stops the replay, writes the report of what ran marked partial, exits 130`, async () => {
      const out = join(tmp, lanes.slice(2));
      const r = await interrupted(out, lanes);
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr.slice(-1500) + r.stdout.slice(-800)).toBe(130);
      expect(r.stderr).toContain('writing the report of what ran (partial)');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toMatch(/PARTIAL: stopped by Ctrl-C/);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
      expect(report.partial).toBe(true);
      expect(report.lanes.map((l) => l.assumption)).toEqual(['optimistic', 'pessimistic']);
      // stopped part-way: some data replayed, not all of it
      expect(report.snapshots).toBeGreaterThan(0);
      expect(report.snapshots).toBeLessThan(SNAPSHOTS);
      expect(Date.parse(report.end)).toBeLessThan(START + (SNAPSHOTS - 1) * 1000);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      expect(html).toContain('Partial run:');
    }, 120_000);
  }
});
