import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GRID_12, writeSweep } from './sweep-fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function bot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/bot.js', ...args], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('bot sweep', () => {
  it('runs the shipped config/sweep.yaml on the sample data: one JSON line per trial, sweep.json and sweep.html', async () => {
    const { dir } = writeSweep('');
    const out = join(dir, 'shipped');
    // one worker thread: the pool of several is executors-same's (in-process); a second thread here cost ~1.9 s of CPU
    const r = await bot(['sweep', 'config/sweep.yaml', '--out', out, '--json', '--workers', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(12);
    expect(lines.at(-1)).toMatchObject({ done: 12, total: 12 });
    expect(lines.every((l) => typeof l['key'] === 'string' && typeof l['figuresHash'] === 'string')).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      counts: { trials: number };
      best: Array<{ params: Record<string, unknown>; lanes: Record<string, unknown> }>;
    };
    expect(report.counts.trials).toBe(12);
    expect(Object.keys(report.best[0]!.params)).toEqual(['strategies[0].params.spread', 'strategies[0].params.levels']);
    expect(Object.keys(report.best[0]!.lanes).sort()).toEqual(['optimistic', 'pessimistic']);
    // the fill model and fee rates the trials used
    expect((report as unknown as { fillModelLine: string }).fillModelLine).toMatch(
      /^fill model: pessimistic bound; optimistic lane queueAhead 1, decreaseTrades 1 \(defaults\); fees maker [\d.]+ %, taker [\d.]+ %$/,
    );
    const html = readFileSync(join(out, 'sweep.html'), 'utf8');
    expect(html).toContain('Heat map');
    expect(html).toContain('<span id="fill-model-line">fill model: pessimistic bound;');
    expect(html).not.toMatch(/<script|https?:\/\//); // self-contained
  }, 180_000);

  it('a wrong sweep file: file, line, path and expectation, exit 2, no stack', async () => {
    const { file } = writeSweep(GRID_12.replace('{ from: 1, to: 3, step: 1 }', '{ from: 1, to: 3, step: one }'));
    const r = await bot(['sweep', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:7:`);
    expect(r.stderr).toContain(`space["strategies[0].params.levels"].step: expected a number`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('Ctrl-C stops cleanly and keeps finished trials; --resume finishes the rest', async () => {
    const { dir, file } = writeSweep(GRID_12, { windowMs: 120_000 });
    const out = join(dir, 'out');
    const child = spawn(process.execPath, ['bin/bot.js', 'sweep', file, '--out', out, '--json', '--workers', '1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (b: Buffer) => {
        const first = stdout === '';
        stdout += b.toString();
        if (first) child.kill('SIGINT');
      });
      child.once('exit', (c) => resolve(c));
    });
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('stopping');
    const log = readFileSync(join(out, 'trials.jsonl'), 'utf8');
    const kept = log.trim().split('\n').length - 1;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(12);
    expect(JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8'))).toMatchObject({ interrupted: true });
    // one worker: the pool's size is not what resuming is about, and a second worker thread cost ~1 s of CPU
    const r = await bot(['sweep', file, '--out', out, '--json', '--workers', '1', '--resume']);
    expect(r.code).toBe(0);
    // the finished trials were not run again: their records (with their run times) stay as they were, the rest follow
    const resumed = readFileSync(join(out, 'trials.jsonl'), 'utf8');
    expect(resumed.startsWith(log)).toBe(true);
    expect(resumed.trim().split('\n')).toHaveLength(13);
    const lines = jsonLines(r.stdout);
    expect(lines).toHaveLength(12);
    expect(new Set(lines.map((l) => l['key'])).size).toBe(12);
    expect(JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8'))).toMatchObject({ interrupted: false, counts: { trials: 12 } });
    expect(existsSync(join(out, 'sweep.html'))).toBe(true);
    writeFileSync(join(out, 'done'), '');
  }, 180_000);
});
