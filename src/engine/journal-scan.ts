import { BotError } from '../model/errors.js';
import type { JournalRecord } from './journal-records.js';

/**
 * The daemon's strict reading of its journal at start. Every record is written with one write(2) of the whole line,
 * newline included, so a crash mid-write can damage only the LAST line: that one is dropped with a warning. A
 * damaged line anywhere else (garbage bytes, a line cut in half mid-file) means the file was damaged or edited; a
 * restart that skipped it would adopt the order it held as a stranger's, so the start is refused with the line
 * numbers instead (`bot journal repair` drops them on purpose). Readers that only look (tests, the chaos audit) keep
 * the tolerant `parseJournalText`.
 */

/** A damaged line: 1-based number, where it starts in the file and its length in bytes (its content is never shown). */
export interface DamagedLine {
  readonly line: number;
  readonly offset: number;
  readonly bytes: number;
}

export interface JournalScan {
  readonly records: JournalRecord[];
  /** Damaged lines before the last one. */
  readonly corrupt: readonly DamagedLine[];
  /** The last line, when it is damaged (a torn write). */
  readonly torn?: DamagedLine;
  /** The file ends without a newline after a whole record (appending must start a new line first). */
  readonly unterminated: boolean;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Splits the file's bytes into records and damaged lines (invalid UTF-8, not JSON, or JSON without a `type`). */
export function scanJournal(bytes: Uint8Array): JournalScan {
  const records: JournalRecord[] = [];
  const damaged: DamagedLine[] = [];
  let lastContentLine = 0;
  let line = 0;
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(NEWLINE, start);
    const end = nl < 0 ? bytes.length : nl;
    line += 1;
    const slice = bytes.subarray(start, end);
    const record = decodeRecord(slice);
    if (record === 'blank') {
      // blank lines carry nothing
    } else {
      lastContentLine = line;
      if (record === undefined) damaged.push({ line, offset: start, bytes: slice.length });
      else records.push(record);
    }
    start = end + 1;
  }
  const last = damaged[damaged.length - 1];
  const torn = last !== undefined && last.line === lastContentLine ? last : undefined;
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE && torn === undefined;
  return { records, corrupt: torn === undefined ? damaged : damaged.slice(0, -1), ...(torn !== undefined ? { torn } : {}), unterminated };
}

function decodeRecord(slice: Uint8Array): JournalRecord | 'blank' | undefined {
  let text: string;
  try {
    text = decoder.decode(slice);
  } catch {
    return undefined;
  }
  if (text.trim() === '') return 'blank';
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string'
      ? (value as JournalRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Damaged journal lines before its last one: the daemon does not start on it (exit 2). */
export class JournalCorruptError extends BotError {
  readonly file: string;
  readonly lines: readonly number[];

  constructor(file: string, damaged: readonly DamagedLine[]) {
    const lines = damaged.map((d) => d.line);
    const shown = lines.length > 10 ? `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more` : lines.join(', ');
    super(
      `journal ${file}: line${lines.length === 1 ? '' : 's'} ${shown} ${lines.length === 1 ? 'is' : 'are'} damaged (not a whole JSON record) and not the last line, so not a torn write; ` +
        `the daemon will not guess what ${lines.length === 1 ? 'it' : 'they'} held. Look at the file, or run \`npx bot journal repair ${file}\` (keeps a copy, drops the damaged lines)`,
      { code: 'ERR_JOURNAL_CORRUPT' },
    );
    this.file = file;
    this.lines = lines;
  }
}
