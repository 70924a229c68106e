import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BacktestConfigSchema } from '../../../backtest/backtest-config.js';
import { generateRecording } from '../../../backtest/data/generate-recording.js';
import { parseYamlConfig } from '../../../src/settings/load-yaml.js';
import { sessionOnce, type SessionPaths } from './session-fixture-once.js';
import { generatedBtcUsdtMarket } from '../fixtures.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'cli-parity-'));
let session: SessionPaths;
const wireMarket = generatedBtcUsdtMarket({ takerFeePercent: '0.2' });

function bot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache') };
    execFile(process.execPath, ['bin/bot.js', ...args], { cwd: root, timeout: 170_000, env }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  // the session parity-html reads too, made once per run
  session = await sessionOnce(dir, { snapshots: 90 });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bot parity', () => {
  it('on a small session (the config found beside the journal): exit 0, parity.json and parity.html written, the summary line', async () => {
    const out = join(dir, 'out');
    const r = await bot(['parity', '--journal', session.journal, '--data', session.recording, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [line, modelLine] = r.stdout.split('\n');
    expect(line).toMatch(
      /^parity: live fills [1-9]\d*; matched pess \d+, opt \d+; missed \d+; extra \d+; live pnl -?[\d.]+; band \[-?[\d.]+, -?[\d.]+\]; inside (yes|no)$/,
    );
    expect(modelLine).toBe('  fill model: pessimistic bound; optimistic lane queueAhead 1, decreaseTrades 1 (defaults); fees maker 0.1 %, taker 0.2 %');
    const report = JSON.parse(readFileSync(join(out, 'parity.json'), 'utf8')) as { summary: { line: string; liveFills: number }; config: string; fit: unknown };
    expect(report.summary.line).toBe(line);
    expect(report.config).toBe(session.config);
    expect(report.fit).toBeNull();
    const html = readFileSync(join(out, 'parity.html'), 'utf8');
    expect(html).toContain(line!.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
    expect(html).not.toMatch(/<script src=|<link |<img /); // self-contained: nothing fetched (Chart.js inlined)
    expect(existsSync(join(out, 'fill-model.yaml'))).toBe(false);
  }, 120_000);

  it('--fit --json: one JSON object, and a fill-model.yaml whose block a backtest config accepts', async () => {
    const out = join(dir, 'fit');
    const r = await bot(['parity', '--journal', session.journal, '--data', session.recording, '--config', session.config, '--out', out, '--fit', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      line: string;
      fit: { best: { queueAhead: number; decreaseTrades: number }; loss: number };
      files: { fillModel: string };
    };
    expect(summary.line).toMatch(/^parity: live fills/);
    expect(summary.fit.best.decreaseTrades).toBe(0);
    const block = readFileSync(summary.files.fillModel, 'utf8');
    expect(block).toMatch(/^# bot parity --fit on .*journal\.jsonl/);
    const config = parseYamlConfig(
      `data: [x.jsonl.gz]\nbalances: { BTC: 1 }\nstrategies: [{ id: mm, use: market-maker, market: BTC_USDT }]\n${block}`,
      BacktestConfigSchema,
      'backtest.yaml',
    );
    expect(config.fillModel).toEqual(summary.fit.best);
  }, 170_000);

  it('bad input: a clear error naming what is wrong, exit 2, no stack trace', async () => {
    const missing = await bot(['parity', '--journal', join(dir, 'nope.jsonl'), '--data', session.recording]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--journal');
    expect(missing.stderr).toContain('does not exist');
    const notJournal = join(dir, 'not-a-journal.jsonl');
    writeFileSync(notJournal, 'hello\n');
    const bad = await bot(['parity', '--journal', notJournal, '--data', session.recording, '--config', session.config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no start record');
    const elsewhere = join(dir, 'elsewhere');
    const noConfig = await bot(['parity', '--journal', session.journal, '--data', session.recording, '--out', elsewhere, '--config', session.market]);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toContain('market.jsonl.gz');
    const other = join(dir, 'other-day.jsonl.gz');
    await generateRecording({ out: other, market: wireMarket, snapshots: 5, intervalMs: 1000, startT: 1_600_000_000_000, startTicks: 3_000_000 });
    const wrongData = await bot(['parity', '--journal', session.journal, '--data', other, '--out', elsewhere]);
    expect(wrongData.code).toBe(2);
    expect(wrongData.stderr).toContain(`--data: no order book snapshot in ${other} (the session's span: 2023-11-14T22:13:20.000Z → `);
    for (const r of [missing, bad, noConfig, wrongData]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
