import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Compiles the sources once for the suite (bin/build.js into a fresh temporary directory) and points BOT_DIST_DIR at
 * it, so the `node bin/bot.js` children the tests start, and the backtest's worker threads, load JavaScript instead of
 * compiling every module through tsx (`bot check` 0.57 s of CPU instead of 1.23 s).
 * The workers inherit the variable (they are forked after global setup).
 *
 * It cannot make a test run old code: the directory is new on every run, and bin/bot.js still asks fresh-build.mjs,
 * which turns to the sources when any source is saved after the build. A failed build writes no build.json, so the
 * children run the sources, as from a fresh clone; that path keeps its own tests (test/cli/compiled-build.test.ts
 * compares the two, lazy-commands.test.ts runs from the sources). BOT_TEST_SOURCES=1 skips the build: the whole suite
 * then runs its children from the sources, as before this setup. Either way BOT_AUTO_BUILD=0: a child finding the
 * build stale runs the sources rather than rebuilding it with a notice on its stderr (compiled-build.test.ts tests that).
 *
 * Returns the teardown, or undefined when there is nothing to remove.
 */
export function buildForTests(): (() => void) | undefined {
  process.env.BOT_AUTO_BUILD = '0';
  if (process.env.BOT_TEST_SOURCES === '1') return undefined;
  const dist = mkdtempSync(join(tmpdir(), 'bot-test-build-'));
  try {
    execFileSync(process.execPath, ['bin/build.js', '--out', dist], { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    // the type check reports what is wrong with the sources; the tests still run, from them
    process.stdout.write(`the test build failed, the tests run bin/bot.js from the sources: ${(e as Error).message.split('\n')[0]}\n`);
  }
  process.env.BOT_DIST_DIR = dist;
  return () => rmSync(dist, { recursive: true, force: true });
}
