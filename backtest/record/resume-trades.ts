import { existsSync } from 'node:fs';
import { readRecordingLines } from '../../src/recording/recording-format.js';
import { listSeries } from '../../src/recording/recording-writer.js';

/** What a resumed recording already holds at its end. */
export interface RecordingTail {
  /** The trade ids of its last trade lines, oldest first (at most `keep`). */
  readonly tradeIds: readonly number[];
  /** The time of its last line, Unix ms (undefined for no file or an empty one). */
  readonly lastT: number | undefined;
}

/**
 * Reads the tail of the recording `bot record` is about to resume: the last trade ids (so the trade
 * de-duplication carries across the restart) and the last time (so trade lines never go back in time).
 *
 * A gzip file cannot be read from its end, so the last file is read through (with rotation: the last two
 * parts, as the newest may have just been started). A truncated last member keeps its complete lines.
 */
export async function readRecordingTail(out: string, rotating: boolean, keep = 1000): Promise<RecordingTail> {
  const files = rotating ? listSeries(out).slice(-2) : existsSync(out) ? [out] : [];
  const ids: number[] = [];
  let lastT: number | undefined;
  for (const file of files) {
    for await (const line of readRecordingLines(file)) {
      if (line.type === 'market') continue;
      lastT = lastT === undefined ? line.t : Math.max(lastT, line.t);
      if (line.type === 'trade' && typeof line.id === 'number') {
        ids.push(line.id);
        if (ids.length > 2 * keep) ids.splice(0, ids.length - keep);
      }
    }
  }
  return { tradeIds: ids.slice(-keep), lastT };
}
