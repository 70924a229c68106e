import type { Journal } from './journal.js';
import { JournalError } from './journal.js';
import type { JournalRecord } from './journal-records.js';

/** Records kept in memory after a failure, to write when the journal closes (a bound: the process must not grow). */
const MAX_PENDING = 10_000;

/**
 * A journal whose first write failure (disk full, permissions, an I/O error, a failed background fsync) starts the
 * daemon's emergency stop instead of escaping as a raw exception wherever the write happened. From then on every
 * `submit` is refused with a JournalError (no order goes out without its record: the executor settles it as rejected,
 * unsent), and every other record - the stop's cancels, outcomes and fills - is kept in memory without a throw, so the
 * stop runs to its end; `close` writes what the journal can still take, so a stop on a full disk loses as little as
 * the disk allows. A restart drops a line the failure tore (see journal.ts).
 */
export class GuardedJournal implements Journal {
  private failure: JournalError | undefined;
  private readonly pending: JournalRecord[] = [];
  private dropped = 0;

  constructor(
    private readonly inner: Journal,
    private readonly onFailure: (error: JournalError) => void,
  ) {}

  append(record: JournalRecord): void {
    if (this.failure !== undefined) {
      if (record.type === 'submit')
        throw new JournalError(`journal unwritable since: ${this.failure.message}; order ${record.clientOrderId} not sent`, this.failure);
      this.keep(record);
      return;
    }
    try {
      this.inner.append(record);
    } catch (error) {
      const failure = error instanceof JournalError ? error : new JournalError(`journal write failed: ${(error as Error).message}`, error);
      this.failure = failure;
      this.onFailure(failure);
      if (record.type === 'submit') throw failure;
      this.keep(record);
    }
  }

  records(): JournalRecord[] {
    return this.inner.records();
  }

  /** The first failure, once there was one. */
  get failed(): JournalError | undefined {
    return this.failure;
  }

  /** Records the journal did not take (kept ones it could not write at close, and any beyond the memory bound). */
  get lost(): number {
    return this.dropped + this.pending.length;
  }

  close(): void {
    while (this.failure !== undefined && this.pending.length > 0) {
      try {
        this.inner.append(this.pending[0]!);
        this.pending.shift();
      } catch {
        break;
      }
    }
    try {
      this.inner.close();
    } catch (error) {
      this.failure ??= new JournalError(`journal close failed: ${(error as Error).message}`, error);
    }
  }

  private keep(record: JournalRecord): void {
    if (this.pending.length < MAX_PENDING) this.pending.push(record);
    else this.dropped += 1;
  }
}
