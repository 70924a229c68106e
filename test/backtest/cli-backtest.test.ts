import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bt-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/bot.js', ...args], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('bot backtest', () => {
  it('runs config/backtest.yaml on the committed sample data and writes report.json and report.html', async () => {
    const out = join(tmp, 'report');
    const r = await bot(['backtest', 'config/backtest.yaml', '--out', out, '--no-progress']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/optimistic +fills \d+/);
    expect(r.stdout).toMatch(/pessimistic +fills \d+/);
    // every report states the fill model and the fee rates it used
    expect(r.stdout).toContain('fill model: pessimistic bound; optimistic lane queueAhead 1, decreaseTrades 1 (defaults); fees maker 0.1 %, taker 0.1 %');
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      snapshots: number;
      lanes: Array<{ fills: unknown[] }>;
      fillModelParams: unknown;
      fees: unknown;
    };
    expect(report.snapshots).toBeGreaterThan(400);
    expect(report.lanes[0]!.fills.length).toBeGreaterThan(0);
    expect(report.fillModelParams).toEqual({ queueAhead: 1, decreaseTrades: 1 });
    expect(report.fees).toEqual({ maker: '0.001', taker: '0.001' });
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<p class="note" id="fill-model-line">fill model: pessimistic bound;');
  }, 180_000);

  it('--parallel and --sequential write the same report of a run cut to --from/--to (the default is one of them, by core count); both at once is a usage error', async () => {
    // one pair of runs for both claims: a third run only for the cut cost ~0.6 s of CPU
    const [par, seq] = [join(tmp, 'par'), join(tmp, 'seq')];
    const head = JSON.parse(readFileSync(join(tmp, 'report', 'report.json'), 'utf8')) as { start: string };
    const from = Date.parse(head.start) + 60_000;
    const cut = ['--from', String(from), '--to', new Date(from + 120_000).toISOString(), '--no-progress'];
    const [a, b] = await Promise.all([
      bot(['backtest', 'config/backtest.yaml', '--out', par, ...cut, '--parallel']),
      bot(['backtest', 'config/backtest.yaml', '--out', seq, ...cut, '--sequential']),
    ]);
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, '', '']);
    const report = (dir: string) =>
      JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { snapshots: number; start: string; lanes: Array<{ fills: unknown[] }> };
    // the cut: two minutes of one-second snapshots, none before --from
    expect(report(par).snapshots).toBeGreaterThanOrEqual(119);
    expect(report(par).snapshots).toBeLessThanOrEqual(121);
    expect(Date.parse(report(par).start)).toBeGreaterThanOrEqual(from);
    expect(report(par)).toEqual(report(seq));
    const both = await bot(['backtest', 'config/backtest.yaml', '--parallel', '--sequential']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--parallel.*cannot be used with.*--sequential/);
  }, 180_000);

  it('a wrong config names the file and the path, exit code 2, no stack trace', async () => {
    const cfg = join(tmp, 'bad.yaml');
    writeFileSync(cfg, 'balances: { BTC: lots }\nstrategies: []\n');
    const r = await bot(['backtest', cfg, '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.yaml');
    expect(r.stderr).toContain('balances');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('bot import binance-depth converts the capture (read in place from ../shared/data) and refuses to overwrite', async () => {
    const out = join(tmp, 'binance.jsonl.gz');
    const files = ['btcusdt_20240808.gz', 'btcusdt_20240809.gz'].map((f) => join(root, '..', 'shared', 'data', 'hftbacktest-binance-spot-btcusdt', f));
    const r = await bot(['import', 'binance-depth', ...files, '--interval', '5s', '--limit', '10', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { snapshots: number; trades: number; gaps: number };
    expect(summary.gaps).toBe(0);
    expect(summary.snapshots).toBeGreaterThan(120);
    expect(summary.trades).toBeGreaterThan(19_000);
    const again = await bot(['import', 'binance-depth', ...files, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists');
  }, 120_000);
});
