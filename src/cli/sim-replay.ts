import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../model/errors.js';
import { checkReadableFile } from '../settings/file-paths.js';
import { loadSimConfigFile } from '../sim/load-sim-config-file.js';
import { createRecordedFlow, loadRecordedBooks, simConfigForRecording, type RecordedFlow } from '../sim/recorded-flow.js';
import { DEFAULT_SIM_CONFIG_INPUT, type SimConfig, type SimConfigInput } from '../sim/sim-config.js';

/**
 * `bot sim --replay FILE`: the sim config with the recording's market (its rules of the day) and a flow that
 * replays its books. Accounts and other markets come from `--config` (validated first) or the built-in config.
 */
export async function replayOptions(
  file: string,
  o: { speed: number; loop: boolean; configFile?: string | undefined },
): Promise<{ config: SimConfig; flow: RecordedFlow }> {
  let base: SimConfigInput = DEFAULT_SIM_CONFIG_INPUT;
  if (o.configFile !== undefined) {
    loadSimConfigFile(o.configFile); // precise file/path/expectation errors before we use the raw input
    base = parseYaml(readFileSync(o.configFile, 'utf8')) as SimConfigInput;
  }
  // a missing file is a usage error in one line (a missing .gz used to end in an unhandled 'error' event)
  const path = checkReadableFile(file, { key: '--replay' });
  let books;
  try {
    books = await loadRecordedBooks(path);
  } catch (error) {
    throw new ConfigError(`--replay ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (books.snapshots.length === 0) throw new ConfigError(`--replay ${file}: the recording has no book snapshot`);
  return { config: simConfigForRecording(books.market, base), flow: createRecordedFlow({ books, speed: o.speed, loop: o.loop }) };
}
