import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { JournalRecord } from '../engine/journal-records.js';

/**
 * Follows a daemon's journal while it runs (and across its restarts: the file only grows), reading only the
 * bytes added since the last call and counting complete lines: submissions, cancels, starts.
 * A line cut by a SIGKILL is left for the next call (the restarted daemon appends after it; the journal
 * reader skips such a line, and so does this one once a newline ends it).
 */
export class JournalTail {
  submits = 0;
  cancels = 0;
  starts = 0;
  #offset = 0;
  #rest = '';

  constructor(readonly path: string) {}

  /** Reads what was appended; returns the number of new records. */
  poll(): number {
    if (!existsSync(this.path)) return 0;
    const fd = openSync(this.path, 'r');
    let text = '';
    try {
      const size = fstatSync(fd).size;
      if (size <= this.#offset) return 0;
      const buffer = Buffer.alloc(size - this.#offset);
      const n = readSync(fd, buffer, 0, buffer.length, this.#offset);
      this.#offset += n;
      text = buffer.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
    const lines = (this.#rest + text).split('\n');
    this.#rest = lines.pop() ?? '';
    let count = 0;
    for (const line of lines) {
      if (line.trim() === '') continue;
      let r: JournalRecord;
      try {
        r = JSON.parse(line) as JournalRecord;
      } catch {
        continue;
      }
      count += 1;
      this.#apply(r);
    }
    return count;
  }

  #apply(r: JournalRecord): void {
    switch (r.type) {
      case 'start':
        this.starts += 1;
        return;
      case 'submit':
        this.submits += 1;
        return;
      case 'cancel':
        this.cancels += 1;
        return;
      default:
        return;
    }
  }
}
