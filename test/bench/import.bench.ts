/**
 * `npm run bench -- import`: throughput of the importers next to the floor of only reading the same input,
 * measured in the same run (3 rounds each, the best kept: the machine is shared).
 *  - binance-depth on the real capture (../shared/data/hftbacktest-binance-spot-btcusdt): floor = stream +
 *    gunzip + split lines + JSON.parse of each message;
 *  - tardis on Tardis-schema CSVs generated from that capture (under the OS temp dir): floor = stream +
 *    gunzip + split lines + split fields.
 * Figures: lines/s of floor and import, and import time / floor time (the cost of rebuilding, checking and
 * writing; lower is better).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBinanceDepth } from '../../backtest/importers/binance-depth-importer.js';
import { importTardis } from '../../backtest/importers/tardis-importer.js';
import { readTextLines } from '../../backtest/importers/text-lines.js';
import { BINANCE_FILES, btcUsdtWireMarket } from '../backtest/fixtures.js';
import { writeTardisFromBinance } from '../backtest/tardis-fixture.js';

async function best(rounds: number, f: () => Promise<number>): Promise<{ ms: number; n: number }> {
  let ms = Infinity;
  let n = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    n = await f();
    ms = Math.min(ms, performance.now() - t0);
  }
  return { ms, n };
}

async function floor(files: readonly string[], parse: (text: string) => unknown): Promise<number> {
  let n = 0;
  for await (const line of readTextLines(files)) {
    if (line.text.length === 0) continue;
    parse(line.text);
    n += 1;
  }
  return n;
}

function report(name: string, base: { ms: number; n: number }, run: { ms: number }): void {
  const rate = (ms: number): string => `${Math.round(base.n / (ms / 1000)).toLocaleString('en-US')} lines/s`;
  process.stdout.write(
    `${name.padEnd(14)} floor ${rate(base.ms).padStart(18)} (${base.ms.toFixed(0)} ms) | import ${rate(run.ms).padStart(18)} (${run.ms.toFixed(0)} ms) | import/floor ${(run.ms / base.ms).toFixed(2)}\n`,
  );
}

export default async function importBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'v4-trader-bench-import-'));
  try {
    let k = 0;
    const binFloor = await best(3, () => floor(BINANCE_FILES, (t) => JSON.parse(t.slice(t.indexOf(' ') + 1))));
    const binRun = await best(3, async () => {
      await importBinanceDepth({ files: BINANCE_FILES, intervalMs: 1000, limit: 20, out: join(dir, `b${++k}.jsonl.gz`), market: btcUsdtWireMarket() });
      return 0;
    });
    report('binance-depth', binFloor, binRun);

    const gen = await writeTardisFromBinance(BINANCE_FILES, dir);
    const tFloor = await best(3, () => floor([gen.book, gen.trades], (t) => t.split(',')));
    const tRun = await best(3, async () => {
      await importTardis({ book: gen.book, trades: gen.trades, intervalMs: 1000, limit: 20, out: join(dir, `t${++k}.jsonl.gz`), market: btcUsdtWireMarket() });
      return 0;
    });
    report('tardis', tFloor, tRun);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
