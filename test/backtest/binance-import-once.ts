import { join } from 'node:path';
import { importBinanceDepth, type BinanceImportSummary } from '../../backtest/importers/binance-depth-importer.js';
import { oncePerRun } from '../helpers/once-per-run.js';
import { BINANCE_FILES, btcUsdtWireMarket } from './fixtures.js';

/**
 * The Binance capture imported at 1 s, 20 levels a side, once per run of the suite (test/helpers/once-per-run.ts):
 * binance-import checks what the importer wrote, binance-backtest replays it, tardis-import compares its own import
 * with it and data-info reads it; each import cost ~1.5 s of CPU.
 * Readers only read the file.
 */
export function binanceImportOnce(ownDir: string): Promise<{ file: string; summary: BinanceImportSummary }> {
  return oncePerRun('binance-import-1s-20', ownDir, async (dir) => {
    const file = join(dir, 'btc.jsonl.gz');
    const summary = await importBinanceDepth({ files: BINANCE_FILES, intervalMs: 1000, limit: 20, out: file, market: btcUsdtWireMarket() });
    return { file, summary };
  });
}
