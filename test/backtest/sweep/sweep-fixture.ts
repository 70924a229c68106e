import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SAMPLE = resolve('backtest/sample-data/sim-btc-usdt.jsonl.gz');
/** First snapshot of the sample recording; trials replay a short window after it to stay fast. */
export const SAMPLE_START = 1795344940780;

/**
 * A temporary directory with a base backtest config on the sample data and a sweep file over it.
 * Returns the sweep file's path. `sweep` holds the sweep file's YAML lines after `base:`.
 */
export function writeSweep(sweep: string, o: { data?: string; windowMs?: number } = {}): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sweep-'));
  writeFileSync(
    join(dir, 'backtest.yaml'),
    [
      `data: [${JSON.stringify(o.data ?? SAMPLE)}]`,
      'balances: { BTC: "1", USDT: "50000" }',
      'polling: { bookMs: 1000, bookLimit: 20, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 }',
      'strategies:',
      '  - id: mm',
      '    use: market-maker',
      '    market: BTC_USDT',
      '    params: { spread: "0.0006", size: "0.01", levels: 3, levelSpacing: "0.0003", maxInventory: "0.05", refreshThreshold: "0.0002" }',
      '    risk: { maxOpenOrders: 20, maxLoss: "500" }',
      '',
    ].join('\n'),
  );
  const file = join(dir, 'sweep.yaml');
  writeFileSync(
    file,
    `base: backtest.yaml\nfrom: ${SAMPLE_START}\nto: ${SAMPLE_START + (o.windowMs ?? 60_000)}\nout: ${JSON.stringify(join(dir, 'out'))}\n${sweep}\n`,
  );
  return { dir, file };
}

/** The 12-trial grid of the sameness tests: 4 spreads × 3 levels. */
export const GRID_12 = `space:
  strategies[0].params.spread: { values: ["0.0002", "0.0004", "0.0006", "0.0008"] }
  strategies[0].params.levels: { from: 1, to: 3, step: 1 }
sampler: { kind: grid }`;
