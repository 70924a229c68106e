import { closeSync, existsSync, fsync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BotError } from '../model/errors.js';
import type { JournalRecord } from './journal-records.js';
import { JournalCorruptError, scanJournal, type DamagedLine, type JournalScan } from './journal-scan.js';

const EMPTY_SCAN: JournalScan = { records: [], corrupt: [], unterminated: false };

/**
 * Append-only record of what the engine did. `append` is synchronous: when it returns, the record is
 * in the kernel (FileJournal) so a crash of the process, SIGKILL included, cannot lose it.
 */
export interface Journal {
  append(record: JournalRecord): void;
  /**
   * True when `append` drops every record and never throws (DISCARDING_JOURNAL): the engine's hot paths (intents,
   * submissions, outcomes, fills) may then skip making the records. Absent: records are kept (every live journal).
   */
  readonly discards?: boolean;
  /** Every record written so far (the file's, for a FileJournal: what a restart replays). */
  records(): JournalRecord[];
  close(): void;
}

/**
 * Flush policy of FileJournal. Every record is written with one synchronous write(2) before the engine goes on:
 * nothing is buffered in the process, so a crash of the process (SIGKILL, OOM, an exception) loses nothing already
 * appended, whatever the policy. The policies differ only in what survives a crash of the MACHINE (power, kernel):
 * - `fsync: 'background'` (default): the file is fsynced on the thread pool at most once a second while records come
 *   (the first record after a quiet second at once); the request is not held for it. A machine crash can lose up to
 *   the last second of records. An order sent in that window is still on the venue, under the strategy's
 *   client-id prefix: a restart adopts it through the open-orders endpoint (reconcile), and its fills come from the
 *   deals endpoint. A failed background fsync makes the next append throw (the engine stops sending).
 * - `fsync: 'submissions'` fsyncs `submit` and `cancel` records BEFORE their request is sent, so even a machine crash
 *   cannot leave an order on the venue that the journal does not know. It costs one disk flush per order on the
 *   order path (2-5 ms at p99 on the benchmark machine, far more on some cloud disks): see `npm run bench -- tick`.
 * - `fsync: 'always'` fsyncs every record before going on; `'never'` leaves durability to the OS's writeback.
 */
export type FsyncPolicy = 'background' | 'submissions' | 'always' | 'never';

export const DEFAULT_FSYNC_POLICY: FsyncPolicy = 'background';
/** The background policy's period: at most one fsync per second, as Redis's `appendfsync everysec`. */
export const BACKGROUND_FSYNC_MS = 1000;

export class JournalError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_JOURNAL', cause });
  }
}

export class FileJournal implements Journal {
  readonly path: string;
  private fd: number | undefined;
  private readonly fsync: FsyncPolicy;
  /** Lines dropped on open: 1 when the last line was torn by a crash mid-write, else 0. */
  readonly skipped: number;
  /** The torn last line dropped on open (line number and byte length; the daemon warns about it). */
  readonly torn: DamagedLine | undefined;
  private readonly initial: JournalRecord[];
  /** Background policy: an fsync is in flight / records came after it started / it failed. */
  private syncing = false;
  private dirty = false;
  private syncError: unknown;
  private syncTimer: NodeJS.Timeout | undefined;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  /** A write failed part-way (e.g. disk full): the next record starts on a line of its own. */
  private tornWrite = false;
  private readonly onFsync: ((ms: number) => void) | undefined;

  /**
   * `onFsync` is told each fsync's duration in ms (the daemon's metrics). Reads the file strictly (journal-scan.ts):
   * a damaged line other than the last throws JournalCorruptError; a torn last line is dropped.
   */
  constructor(path: string, options: { fsync?: FsyncPolicy; onFsync?: (ms: number) => void } = {}) {
    this.path = path;
    this.fsync = options.fsync ?? DEFAULT_FSYNC_POLICY;
    this.onFsync = options.onFsync;
    const scan = existsSync(path) ? scanJournal(readFileSync(path)) : EMPTY_SCAN;
    if (scan.corrupt.length > 0) throw new JournalCorruptError(path, scan.corrupt);
    this.initial = scan.records;
    this.torn = scan.torn;
    this.skipped = scan.torn === undefined ? 0 : 1;
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, 'a');
      // A torn last line (its append never returned) is cut off: left in place it would sit mid-file once records
      // follow it, where the next start could not tell it from damage. A whole last record without its newline gets one.
      if (scan.torn !== undefined) ftruncateSync(this.fd, scan.torn.offset);
      else if (scan.unterminated) writeSync(this.fd, '\n');
    } catch (error) {
      throw new JournalError(`cannot open journal ${path}`, error);
    }
  }

  append(record: JournalRecord): void {
    if (this.fd === undefined) throw new JournalError(`journal ${this.path} is closed`);
    if (this.syncError !== undefined) throw new JournalError(`journal ${this.path}: a background fsync failed`, this.syncError);
    const line = Buffer.from(`${this.tornWrite ? '\n' : ''}${JSON.stringify(record)}\n`, 'utf8');
    let off = 0;
    try {
      while (off < line.length) off += writeSync(this.fd, line, off, line.length - off);
    } catch (error) {
      this.tornWrite = this.tornWrite || off > 0;
      throw new JournalError(`journal ${this.path}: write failed: ${(error as Error).message}`, error);
    }
    this.tornWrite = false;
    if (this.fsync === 'always' || (this.fsync === 'submissions' && (record.type === 'submit' || record.type === 'cancel'))) {
      this.syncNowBlocking(this.fd);
    } else if (this.fsync === 'background') {
      this.syncInBackground();
    }
  }

  /**
   * Background policy: an fsync on the thread pool, at most one every BACKGROUND_FSYNC_MS, when records were written
   * since the last one. Not one per record: while the disk flushes the file's last page, a write(2) that appends to
   * that page waits for the flush (stable pages), which put a flush back on the order path at every record.
   */
  private syncInBackground(): void {
    if (this.syncing || this.syncTimer !== undefined) {
      this.dirty = true;
      return;
    }
    const wait = Math.max(0, this.lastSyncAt + BACKGROUND_FSYNC_MS - performance.now());
    this.syncTimer = setTimeout(() => this.syncNow(), wait);
    this.syncTimer.unref();
  }

  private syncNow(): void {
    this.syncTimer = undefined;
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    this.dirty = false;
    const started = performance.now();
    fsync(fd, (error) => {
      this.syncing = false;
      this.lastSyncAt = performance.now();
      if (!error) this.onFsync?.(this.lastSyncAt - started);
      // close() fsyncs synchronously; a callback that lands after it has nothing left to protect
      if (this.fd === undefined) return;
      if (error) this.syncError = error;
      else if (this.dirty) this.syncInBackground();
    });
  }

  private syncNowBlocking(fd: number): void {
    if (this.onFsync === undefined) return fsyncSync(fd);
    const started = performance.now();
    fsyncSync(fd);
    this.onFsync(performance.now() - started);
  }

  /** False once closed or after a failed background fsync (the next append would throw): the daemon's readiness. */
  writable(): boolean {
    return this.fd !== undefined && this.syncError === undefined;
  }

  /** What was in the file when it was opened (what a restart replays). */
  replayed(): JournalRecord[] {
    return [...this.initial];
  }

  /** Re-reads the whole file. */
  records(): JournalRecord[] {
    return parseJournalText(readFileSync(this.path, 'utf8')).records;
  }

  close(): void {
    if (this.fd === undefined) return;
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** In-memory journal for backtests and tests (same interface, no durability). */
export class MemoryJournal implements Journal {
  private readonly list: JournalRecord[];
  constructor(initial: readonly JournalRecord[] = []) {
    this.list = [...initial];
  }
  append(record: JournalRecord): void {
    this.list.push(record);
  }
  records(): JournalRecord[] {
    return [...this.list];
  }
  close(): void {}
}

/**
 * A journal that keeps nothing (a backtest lane nobody fingerprints, the tick bench's engine-only variant): the engine
 * skips making the records of its hot paths (`discards`), the others are appended and dropped. Stateless, so one
 * serves everywhere. Its records are always none: the runtime reads its journal once, at start, when a fresh
 * MemoryJournal's are none too.
 */
export const DISCARDING_JOURNAL: Journal = { append: () => undefined, discards: true, records: () => [], close: () => undefined };

/**
 * Parses JSONL; unparseable lines (a torn write) are counted and skipped, not fatal. For readers that only look
 * (tests, the chaos audit); the daemon's start reads strictly (FileJournal, journal-scan.ts).
 */
export function parseJournalText(text: string): { records: JournalRecord[]; skipped: number } {
  const records: JournalRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') records.push(value as JournalRecord);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { records, skipped };
}
