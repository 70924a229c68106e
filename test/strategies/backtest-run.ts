import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
import { runBacktestFromConfig, type BacktestRun } from '../../backtest/run-from-config.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The project's committed sample recording (made by the recorder against the sim). */
export const SAMPLE_DATA = path.join(repoRoot, 'backtest', 'sample-data', 'sim-btc-usdt.jsonl.gz');

/**
 * Backtests the strategies of one of the repo's example configs (config/<name>.yaml, params patched) on the sample
 * data with `bot backtest`'s engine: the same strategies, rules, risk and executor on virtual time. The backtest
 * config is written to a temporary folder (removed afterwards) with the report.
 */
export async function backtestExample(name: string, o: { balances: Record<string, string>; params?: Record<string, unknown> }): Promise<BacktestRun> {
  const example = parse(readFileSync(path.join(repoRoot, 'config', `${name}.yaml`), 'utf8')) as {
    strategies: Array<{ params?: Record<string, unknown> }>;
    polling?: unknown;
  };
  const dir = mkdtempSync(path.join(tmpdir(), `bt-${name}-`));
  try {
    const config = {
      data: [SAMPLE_DATA],
      balances: o.balances,
      strategies: example.strategies.map((s) => ({ ...s, params: { ...s.params, ...o.params } })),
      polling: example.polling ?? {},
      out: path.join(dir, 'report'),
      log: { level: 'silent' },
    };
    const file = path.join(dir, 'backtest.yaml');
    writeFileSync(file, stringify(config));
    return await runBacktestFromConfig({ configFile: file, logger: pino({ level: 'silent' }) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rejections of one lane (fill assumption) that the rules or the venue made: must be none. */
export function rulesOrVenueRejections(run: BacktestRun): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const lane of run.report.lanes) {
    const bad = Object.entries(lane.rejections).filter(([reason]) => reason.startsWith('rules') || reason.startsWith('venue'));
    if (bad.length > 0) out[lane.assumption] = Object.fromEntries(bad);
  }
  return out;
}
