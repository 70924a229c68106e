import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from './wait-until.js';

/**
 * `make(dir)` once per run of the suite, for fixtures that cost seconds of CPU and that several test files read the
 * same: made in the run's scratch directory (BOT_TEST_RUN_DIR, test/setup/run-dir.ts), under `name`, by the first
 * caller, under a lock; a caller that comes while it is being made waits for it (or for the word that making it
 * failed). What `make` returns is stored as JSON and handed to every caller; the files it wrote in `dir` are only read
 * after. Outside the suite's global setup (no BOT_TEST_RUN_DIR), it is made in `ownDir`, as a lone file's run would.
 */
export async function oncePerRun<T>(name: string, ownDir: string, make: (dir: string) => Promise<T>): Promise<T> {
  const runDir = process.env.BOT_TEST_RUN_DIR;
  if (runDir === undefined) return make(ownDir);
  const dir = join(runDir, name);
  const done = join(dir, 'done.json');
  const failed = join(dir, 'failed.txt');
  mkdirSync(dir, { recursive: true });
  let mine = false;
  try {
    closeSync(openSync(join(dir, 'lock'), 'wx'));
    mine = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (mine) {
    try {
      const made = await make(dir);
      // written then renamed: a waiter never reads half a file
      writeFileSync(`${done}.tmp`, JSON.stringify(made));
      renameSync(`${done}.tmp`, done);
      return made;
    } catch (e) {
      writeFileSync(failed, (e as Error).message);
      throw e;
    }
  }
  await waitUntil(`${name}, which another test file is making in ${dir}`, () => existsSync(done) || existsSync(failed), {
    timeoutMs: 90_000,
    everyMs: 100,
  });
  if (!existsSync(done)) throw new Error(`making ${name} failed in another test file: ${readFileSync(failed, 'utf8')}`);
  return JSON.parse(readFileSync(done, 'utf8')) as T;
}
