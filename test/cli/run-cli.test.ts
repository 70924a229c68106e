import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/start-sim.js';
import { botChildren } from '../helpers/bot-child.js';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'run-cli-'));
const startBot = botChildren();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `bot`; with `stopWhen`, sends SIGTERM once its output satisfies it (or, with `ctrlC`, SIGINT twice 5 ms apart:
 * what a terminal's Ctrl-C under `npm start` delivers).
 */
async function bot(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; stopWhen?: (out: string) => boolean; ctrlC?: boolean } = {},
): Promise<{ code: number | null; out: string }> {
  const r = await startBot(args, {
    ...(opts.env === undefined ? {} : { env: opts.env }),
    ...(opts.stopWhen === undefined ? {} : { stopWhen: opts.stopWhen }),
    stopWith: opts.ctrlC === true ? 'ctrl-c' : 'SIGTERM',
  }).done;
  return { code: r.code, out: r.out };
}

describe('bot run', () => {
  it('Ctrl-C under npm start (SIGINT from the terminal and again relayed by npm, ms apart) is one clean stop: summary, exit 0', async () => {
    const file = join(dir, 'ctrl-c.yaml');
    writeFileSync(
      file,
      [
        'venue: { kind: sim }',
        'strategies: [{ id: mm, use: market-maker, market: BTC_USDT }]',
        `journal: { path: ${join(dir, 'ctrl-c.jsonl')} }`,
        'log: { level: debug, pretty: false }',
      ].join('\n'),
    );
    // stopped with its quotes resting (the stop cancels them); placements are logged at debug
    const r = await bot(['run', file], { stopWhen: (out) => /"msg":"placed (buy|sell)/.test(out), ctrlC: true });
    expect(r.out).not.toMatch(/exiting without a clean stop/);
    expect(r.out).toMatch(/run summary/);
    expect(r.code).toBe(0);
  });

  it("npm start's config (default.yaml) shows the dashboard's URL, and the URL serves the dashboard", async () => {
    // run from a temporary directory so its relative journal (var/) lands there; a free port instead of 9464
    const child = spawn(process.execPath, [join(repo, 'bin/bot.js'), 'run', join(repo, 'config/default.yaml')], {
      cwd: dir,
      env: { ...process.env, BOT_HTTP_LISTEN: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      for (const start = Date.now(); !/dashboard: http:\/\/127\.0\.0\.1:\d+\//.test(out); await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() - start > 30_000) throw new Error(`no dashboard URL in the output:\n${out.slice(-2000)}`);
      }
      const url = /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1]!;
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      expect(await page.text()).toMatch(/<title>bot dashboard<\/title>/);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out).toMatch(/run summary/);
  });

  it('a wrong config names the file, the path and what was expected, without a stack trace (exit 2)', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'venue: { kind: sim }',
        'strategies:',
        '  - id: mm',
        '    use: market-maker',
        '    market: BTC_USDT',
        '    risk: { maxOpenOrders: many }',
        'polling: { bookMs: 500, typo: 1 }',
      ].join('\n'),
    );
    const r = await bot(['run', file]);
    expect(r.code).toBe(2);
    expect(r.out).toContain(file);
    expect(r.out).toMatch(/strategies\[0\]\.risk\.maxOpenOrders/);
    expect(r.out).toMatch(/typo/);
    expect(r.out).not.toMatch(/\n\s+at /);
  });

  it('a missing ${ENV} secret is named (exit 2)', async () => {
    const file = join(dir, 'rest.yaml');
    writeFileSync(
      file,
      [
        'venue:',
        '  kind: rest',
        '  baseUrl: http://127.0.0.1:9',
        '  apiKey: ${NO_SUCH_KEY_VAR}',
        '  apiSecret: x',
        'strategies: [{ id: mm, use: market-maker, market: BTC_USDT }]',
      ].join('\n'),
    );
    const r = await bot(['run', file], { env: { NO_SUCH_KEY_VAR: '' } });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/NO_SUCH_KEY_VAR|apiKey/);
  });

  it('--dry-run logs intents and sends no order; SIGTERM ends it with a summary and exit 0', async () => {
    const sim = await startSim({ port: 0 });
    try {
      const account = sim.accounts[0]!;
      const file = join(dir, 'dry.yaml');
      writeFileSync(
        file,
        [
          'venue:',
          '  kind: rest',
          `  baseUrl: ${sim.baseUrl}`,
          `  apiKey: ${account.apiKey}`,
          '  apiSecret: ${S}',
          'strategies: [{ id: mm, use: market-maker, market: BTC_USDT, params: { spread: 0.001 }, risk: { unlimited: true } }]',
          'polling: { bookMs: 300 }',
          `journal: { path: ${join(dir, 'dry.jsonl')} }`,
          'log: { level: info, pretty: false }',
        ].join('\n'),
      );
      // both quotes logged as intents (and, were it not a dry run, sent)
      const r = await bot(['run', file, '--dry-run'], { env: { S: account.apiSecret }, stopWhen: (out) => (out.match(/dry-run intent/g) ?? []).length >= 2 });
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/dry-run intent/);
      expect(r.out).toMatch(/run summary/);
      expect(r.out).not.toContain(account.apiSecret);
      expect(sim.stats.arrivalTimes('orderNew')).toHaveLength(0);
      expect(sim.stats.arrivalTimes('orderCancel')).toHaveLength(0);
    } finally {
      await sim.close();
    }
  }, 30_000);
  it("a strategy module's timer left running does not keep a stopped daemon's process alive: summary, one line, exit 0", async () => {
    const file = join(dir, 'leaves-timer.yaml');
    const fixture = fileURLToPath(new URL('./fixtures/leaves-timer.ts', import.meta.url));
    writeFileSync(
      file,
      [
        'venue: { kind: sim }',
        `strategies: [{ id: t, use: ${fixture}, market: BTC_USDT }]`,
        `journal: { path: ${join(dir, 'leaves-timer.jsonl')} }`,
        'log: { level: info, pretty: false }',
      ].join('\n'),
    );
    const r = await bot(['run', file], { stopWhen: (out) => /runtime started/.test(out) });
    expect(r.out).toMatch(/run summary/);
    expect(r.out).toMatch(/bot run: finished, but something left open .* kept the process alive/);
    expect(r.code).toBe(0);
  }, 30_000);
});
