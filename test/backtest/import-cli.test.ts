import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BINANCE_FILES } from './fixtures.js';
import { tardisFromBinanceOnce } from './tardis-fixture-once.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const data = join(root, '..', 'shared', 'data');
const tmp = mkdtempSync(join(tmpdir(), 'bt-import-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/bot.js', ...args], { cwd: root, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A small backtest config for one imported recording: the market maker quoting near the touch. */
async function backtest(
  name: string,
  recording: string,
  o: { market: string; balances: string; bookMs: number; size: string },
): Promise<{ snapshots: number; fills: number }> {
  const cfg = join(tmp, `${name}.yaml`);
  writeFileSync(
    cfg,
    [
      `data: [${JSON.stringify(recording)}]`,
      `balances: ${o.balances}`,
      'fills: [optimistic, pessimistic]',
      `polling: { bookMs: ${o.bookMs}, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }`,
      'strategies:',
      `  - { id: mm, use: market-maker, market: ${o.market}, params: { spread: "0.0002", size: "${o.size}", levels: 1, levelSpacing: "0.0001", maxInventory: "0.05", refreshThreshold: "0.00005" } }`,
      'log: { level: warn }',
      '',
    ].join('\n'),
  );
  const out = join(tmp, `${name}-report`);
  const r = await bot(['backtest', cfg, '--out', out, '--no-progress', '--no-cache']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/optimistic +fills \d+/);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { snapshots: number; lanes: Array<{ fills: unknown[] }> };
  return { snapshots: report.snapshots, fills: report.lanes[0]!.fills.length };
}

describe('bot import tardis | cryptofeed, then bot backtest on each import', () => {
  it('tardis: files generated from the Binance capture', async () => {
    const gen = await tardisFromBinanceOnce(BINANCE_FILES, tmp);
    const out = join(tmp, 'tardis.jsonl.gz');
    const r = await bot(['import', 'tardis', gen.book, '--trades', gen.trades, '--interval', '1s', '--limit', '20', '--out', out, '--json']);
    expect(r.stderr).toBe(''); // not a terminal: no progress bar
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as { snapshots: number; trades: number; snapshotRuns: number };
    expect(s.snapshotRuns).toBe(1);
    expect(s.snapshots).toBeGreaterThan(600);
    const bt = await backtest('tardis', out, { market: 'BTC_USDT', balances: '{ BTC: "0.5", USDT: "40000" }', bookMs: 1000, size: '0.002' });
    expect(bt.snapshots).toBeGreaterThan(600);
  }, 200_000);

  it('cryptofeed: the real OKX BTC-USDT capture', async () => {
    const out = join(tmp, 'okx.jsonl.gz');
    const r = await bot([
      'import',
      'cryptofeed',
      join(data, 'cryptofeed-okx-btcusdt', 'OKX.ws.1.0'),
      '--symbol',
      'BTC-USDT',
      '--stock-prec',
      '8',
      '--money-prec',
      '1',
      '--interval',
      '200',
      '--out',
      out,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ exchange: 'okx', checksumsVerified: 98, trades: 68 });
    const bt = await backtest('okx', out, { market: 'BTC_USDT', balances: '{ BTC: "0.5", USDT: "40000" }', bookMs: 200, size: '0.001' });
    expect(bt.snapshots).toBeGreaterThan(40);
  }, 200_000);

  it('cryptofeed: the real Kraken XBT/CHF capture', async () => {
    const out = join(tmp, 'kraken.jsonl.gz');
    const r = await bot([
      'import',
      'cryptofeed',
      join(data, 'cryptofeed-kraken-xbtchf', 'KRAKEN.ws.50.0'),
      '--symbol',
      'XBT/CHF',
      '--market',
      'BTC_CHF',
      '--money',
      'CHF',
      '--stock-prec',
      '8',
      '--money-prec',
      '1',
      '--min-amount',
      '0.0001',
      '--interval',
      '500',
      '--out',
      out,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ exchange: 'kraken', symbol: 'XBT/CHF', checksumsVerified: 289 });
    const bt = await backtest('kraken', out, { market: 'BTC_CHF', balances: '{ BTC: "0.5", CHF: "40000" }', bookMs: 500, size: '0.001' });
    expect(bt.snapshots).toBeGreaterThan(50);
  }, 200_000);

  it('a bad capture line exits non-zero with file and line, no stack trace', async () => {
    const file = join(tmp, 'bad.csv');
    writeFileSync(file, 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount\nx,BTCUSDT,1,1,maybe,bid,1,1\n');
    const r = await bot(['import', 'tardis', file, '--out', join(tmp, 'bad.jsonl.gz')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${file}:2: is_snapshot "maybe"`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  // util-linux `script` gives the command a pseudo-terminal, so stderr is a TTY there.
  it.skipIf(!existsSync('/usr/bin/script'))(
    'on a terminal, an import draws a progress bar on stderr (all three importers share src/cli/import-progress.ts)',
    async () => {
      const out = join(tmp, 'tty.jsonl.gz');
      // the smallest capture (0.3 MB, OKX): the bar is the same for every importer; the 3 MB Binance one cost ~1.2 s more
      const okx = join(data, 'cryptofeed-okx-btcusdt', 'OKX.ws.1.0');
      const cmd = `${JSON.stringify(process.execPath)} bin/bot.js import cryptofeed ${JSON.stringify(okx)} --symbol BTC-USDT --stock-prec 8 --money-prec 1 --interval 200 --out ${JSON.stringify(out)}`;
      const text = await new Promise<string>((resolve) => {
        execFile('/usr/bin/script', ['-qec', cmd, '/dev/null'], { cwd: root, timeout: 120_000 }, (_e, stdout) => resolve(stdout));
      });
      expect(text).toMatch(/import cryptofeed \[[^\]]*\] 100% \| 0\.3\/0\.3 MB/);
      expect(text).toContain('imported ');
    },
    130_000,
  );
});
