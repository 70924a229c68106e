/**
 * The recording cache under a replay and through the CLI (recording-cache.test.ts has the cache itself): a backtest
 * from the cache decides exactly as from the text, and `bot backtest --cache` / `bot cache build` agree on it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingCacheOptions } from '../../backtest/data/cache-settings.js';
import { runBacktest } from '../../backtest/replay/run-backtest.js';
import { D } from '../../src/model/decimal.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { cacheFiles, longRecording as makeLongRecording } from './cache-recordings.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-cache-replay-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let seq = 0;
const fresh = (name: string): string => join(tmp, `${++seq}-${name}`);
const longRecording = (name: string): string => makeLongRecording(fresh(name));

describe('recording cache, replayed', () => {
  it('a backtest replayed from the cache gives the same intents, fills, rejections and equity as from the text', async () => {
    const sample = fileURLToPath(new URL('../../backtest/sample-data/sim-btc-usdt.jsonl.gz', import.meta.url));
    const mm = await loadStrategy(builtinStrategies, 'market-maker');
    const strategies = [
      {
        id: 'mm',
        definition: mm,
        market: 'BTC_USDT',
        params: { spread: '0.0002', size: '0.01', levels: 2, levelSpacing: '0.0001', maxInventory: '0.05', refreshThreshold: '0.00005' },
      },
    ];
    const dir = fresh('cache');
    const replay = async (cache: RecordingCacheOptions): Promise<string> => {
      const r = await runBacktest({
        files: [sample],
        cache,
        strategies,
        balances: { BTC: D('1'), USDT: D('50000') },
        polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 },
      });
      return JSON.stringify({
        snapshots: r.snapshots,
        trades: r.trades,
        lanes: r.lanes.map((l) => ({ intents: l.intents, fills: l.exchange.fills, rejections: [...l.rejections], errors: l.errors, equity: l.equity })),
      });
    };
    const text = await replay({ dir: false });
    expect(await replay({ dir })).toBe(text); // reads the text, builds the cache
    expect(cacheFiles(dir)).toHaveLength(1);
    expect(await replay({ dir })).toBe(text); // from the cache
    expect(JSON.parse(text).lanes[0].fills.length).toBeGreaterThan(0);
  }, 120_000);

  it('bot backtest --cache DIR builds the cache on its first run; bot cache build then finds it valid', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const bot = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['bin/bot.js', ...args], { cwd: root, timeout: 170_000, env }, (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
        });
      });
    const dir = fresh('cli-cache');
    // the shipped config on a small recording (--data): the sample's 8 minutes cost ~0.4 s of CPU more a run
    const data = longRecording('cli.jsonl.gz');
    const backtest = ['backtest', 'config/backtest.yaml', '--data', data, '--no-progress'];
    const run = await bot([...backtest, '--cache', dir, '--out', fresh('report')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(cacheFiles(dir)).toHaveLength(1);
    const check = await bot(['cache', 'build', data, '--cache', dir, '--json']);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject([{ status: 'valid' }]);
    // outside the test runner the default is $XDG_CACHE_HOME/v4-trader; --no-cache writes nothing there
    const xdg = fresh('xdg');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: xdg };
    delete env['VITEST'];
    expect((await bot([...backtest, '--no-cache', '--out', fresh('report')], env)).code).toBe(0);
    expect(() => readdirSync(join(xdg, 'v4-trader'))).toThrow();
    expect((await bot([...backtest, '--out', fresh('report')], env)).code).toBe(0);
    expect(cacheFiles(join(xdg, 'v4-trader'))).toHaveLength(1);
  }, 180_000);
});
