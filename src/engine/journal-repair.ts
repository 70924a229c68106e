import { closeSync, constants, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { JournalError } from './journal.js';
import { scanJournal, type DamagedLine } from './journal-scan.js';

export interface JournalRepair {
  /** The untouched original, beside the file; absent when nothing was damaged (nothing written). */
  readonly backup?: string;
  /** Every damaged line dropped, the torn last one included, in file order. */
  readonly dropped: readonly DamagedLine[];
  /** Records kept. */
  readonly kept: number;
}

/**
 * `bot journal repair FILE`: the deliberate way past a JournalCorruptError. Copies the file to
 * `FILE.bak-<time>` (never over an existing file), then replaces it, atomically, with its whole records only:
 * every kept line byte for byte, the damaged ones dropped. What was dropped is reported by line number and size,
 * never by content. `at` names the copy (the CLI passes the wall clock).
 */
export function repairJournal(file: string, at: Date): JournalRepair {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new JournalError(`cannot read journal ${file}`, error);
  }
  const scan = scanJournal(bytes);
  const dropped = [...scan.corrupt, ...(scan.torn ? [scan.torn] : [])];
  if (dropped.length === 0) return { dropped, kept: scan.records.length };
  const backup = copyAside(file, at);
  const parts: Buffer[] = [];
  let from = 0;
  for (const d of dropped) {
    parts.push(bytes.subarray(from, d.offset));
    from = Math.min(bytes.length, d.offset + d.bytes + 1); // the line and its newline
  }
  parts.push(bytes.subarray(from));
  let kept = Buffer.concat(parts);
  if (kept.length > 0 && kept[kept.length - 1] !== 0x0a) kept = Buffer.concat([kept, Buffer.from('\n')]);
  const tmp = `${file}.repair-${process.pid}`;
  try {
    const fd = openSync(tmp, 'wx');
    try {
      for (let off = 0; off < kept.length; ) off += writeSync(fd, kept, off, kept.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    throw new JournalError(`cannot write the repaired journal ${file} (the original is kept as ${backup})`, error);
  }
  return { backup, dropped, kept: scan.records.length };
}

/** `FILE.bak-20260102T030405Z`, or `...-2`, `-3` when taken: an earlier copy is never overwritten. */
function copyAside(file: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; n < 1000; n++) {
    const name = `${file}.bak-${stamp}${n === 1 ? '' : `-${n}`}`;
    try {
      copyFileSync(file, name, constants.COPYFILE_EXCL);
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new JournalError(`cannot copy journal ${file} to ${name}`, error);
    }
  }
  throw new JournalError(`cannot copy journal ${file}: too many copies named ${file}.bak-${stamp}*`);
}
