import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { generatedBtcUsdtMarket } from '../backtest/fixtures.js';

/**
 * The benches' generated day: `n` snapshots of 1 s, 20 levels a side, seed 42, made once under the OS temp dir and kept
 * (written under a temporary name and renamed, so a bench killed half-way leaves no partial file). `name` keeps each
 * bench's file (and the binary cache built from it) apart.
 */
export async function benchDayFile(name: string, n: number): Promise<string> {
  const dir = join(tmpdir(), 'v4-trader-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}-${n}-v1.jsonl.gz`);
  if (!existsSync(file)) {
    const partial = `${file}.part-${process.pid}`;
    await generateRecording({
      out: partial,
      market: generatedBtcUsdtMarket(),
      snapshots: n,
      intervalMs: 1000,
      startT: 1_700_000_000_000,
      startTicks: 3_000_000,
      stepTicks: 150,
      seed: 42,
      minQty: 0.2,
    });
    renameSync(partial, file);
  }
  return file;
}
