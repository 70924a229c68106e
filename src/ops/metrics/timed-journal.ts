import type { Journal } from '../../engine/journal.js';

/** The journal with each append's duration told to `observe` (seconds): the write latency metric. */
export function timedJournal(journal: Journal, observe: (seconds: number) => void): Journal {
  return {
    append(record) {
      const started = performance.now();
      journal.append(record);
      observe((performance.now() - started) / 1000);
    },
    records: () => journal.records(),
    close: () => journal.close(),
  };
}
