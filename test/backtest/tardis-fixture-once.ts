import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitUntil } from '../helpers/wait-until.js';
import { writeTardisFromBinance } from './tardis-fixture.js';

type Generated = Awaited<ReturnType<typeof writeTardisFromBinance>>;

/**
 * writeTardisFromBinance, once per run of the suite: generating the files costs ~9 s of CPU, and two test files
 * (tardis-import, import-cli) read the same ones. They are made in the run's scratch directory (BOT_TEST_RUN_DIR,
 * test/setup/run-dir.ts) by the first caller, under a lock; a caller that comes while they are being made waits for
 * them (or for the word that making them failed). Readers only read them. Outside the suite's global setup (no BOT_TEST_RUN_DIR), in `ownDir` as before.
 */
export async function tardisFromBinanceOnce(files: readonly string[], ownDir: string): Promise<Generated> {
  const runDir = process.env.BOT_TEST_RUN_DIR;
  if (runDir === undefined) return writeTardisFromBinance(files, ownDir);
  const dir = join(runDir, `tardis-from-binance-${createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12)}`);
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
      const generated = await writeTardisFromBinance(files, dir);
      // written then renamed: a waiter never reads half a file
      writeFileSync(`${done}.tmp`, JSON.stringify(generated));
      renameSync(`${done}.tmp`, done);
      return generated;
    } catch (e) {
      writeFileSync(failed, (e as Error).message);
      throw e;
    }
  }
  await waitUntil(`the Tardis files another test file is generating in ${dir}`, () => existsSync(done) || existsSync(failed), {
    timeoutMs: 90_000,
    everyMs: 100,
  });
  if (!existsSync(done)) throw new Error(`generating the Tardis files failed in another test file: ${readFileSync(failed, 'utf8')}`);
  return JSON.parse(readFileSync(done, 'utf8')) as Generated;
}
