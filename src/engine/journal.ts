import { closeSync, existsSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BotError } from '../model/errors.js';
import type { JournalRecord } from './journal-records.js';

/**
 * Append-only record of what the engine did. `append` is synchronous: when it returns, the record is
 * in the kernel (FileJournal) so a crash of the process, SIGKILL included, cannot lose it.
 */
export interface Journal {
  append(record: JournalRecord): void;
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
  /** Lines that could not be parsed on open (a crash mid-line leaves at most the last one). */
  readonly skipped: number;
  private readonly initial: JournalRecord[];
  /** Background policy: an fsync is in flight / records came after it started / it failed. */
  private syncing = false;
  private dirty = false;
  private syncError: unknown;
  private syncTimer: NodeJS.Timeout | undefined;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  /** A write failed part-way (e.g. disk full): the next record starts on a line of its own. */
  private torn = false;
  private readonly onFsync: ((ms: number) => void) | undefined;

  /** `onFsync` is told each fsync's duration in ms (the daemon's metrics). */
  constructor(path: string, options: { fsync?: FsyncPolicy; onFsync?: (ms: number) => void } = {}) {
    this.path = path;
    this.fsync = options.fsync ?? DEFAULT_FSYNC_POLICY;
    this.onFsync = options.onFsync;
    const { records, skipped } = existsSync(path) ? parseJournalText(readFileSync(path, 'utf8')) : { records: [], skipped: 0 };
    this.initial = records;
    this.skipped = skipped;
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, 'a');
    } catch (error) {
      throw new JournalError(`cannot open journal ${path}`, error);
    }
    // A torn last line (crash mid-write) must not glue itself to the next record.
    if (skipped > 0) writeSync(this.fd, '\n');
  }

  append(record: JournalRecord): void {
    if (this.fd === undefined) throw new JournalError(`journal ${this.path} is closed`);
    if (this.syncError !== undefined) throw new JournalError(`journal ${this.path}: a background fsync failed`, this.syncError);
    const line = Buffer.from(`${this.torn ? '\n' : ''}${JSON.stringify(record)}\n`, 'utf8');
    let off = 0;
    try {
      while (off < line.length) off += writeSync(this.fd, line, off, line.length - off);
    } catch (error) {
      this.torn = this.torn || off > 0;
      throw new JournalError(`journal ${this.path}: write failed: ${(error as Error).message}`, error);
    }
    this.torn = false;
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
 * A journal that keeps nothing: the engine makes and appends every record, and they are dropped (a backtest lane
 * nobody fingerprints, the tick bench's engine-only variant). Stateless, so one serves everywhere. Its records are
 * always none: the runtime reads its journal once, at start, when a fresh MemoryJournal's are none too.
 */
export const DISCARDING_JOURNAL: Journal = { append: () => undefined, records: () => [], close: () => undefined };

/** Parses JSONL; unparseable lines (a torn write) are counted and skipped, not fatal. */
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
