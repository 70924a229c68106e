import { createHash } from 'node:crypto';
import { oncePerRun } from '../helpers/once-per-run.js';
import { writeTardisFromBinance } from './tardis-fixture.js';

type Generated = Awaited<ReturnType<typeof writeTardisFromBinance>>;

/**
 * writeTardisFromBinance, once per run of the suite (test/helpers/once-per-run.ts): generating the files costs ~1.7 s
 * of CPU, and two test files (tardis-import, import-cli) read the same ones. Outside the suite, in `ownDir`.
 */
export function tardisFromBinanceOnce(files: readonly string[], ownDir: string): Promise<Generated> {
  const name = `tardis-from-binance-${createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 12)}`;
  return oncePerRun(name, ownDir, (dir) => writeTardisFromBinance(files, dir));
}
