import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A scratch directory for one run of the suite (BOT_TEST_RUN_DIR), removed at its end: where test files leave what
 * other files of the same run may reuse (test/backtest/tardis-fixture.ts), so nothing outlives the run and nothing
 * is read from an earlier one. The workers inherit the variable (they are forked after global setup).
 */
export function makeRunDir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'bot-test-run-'));
  process.env.BOT_TEST_RUN_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
