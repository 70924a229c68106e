import { describe, expect, it } from 'vitest';
import { inFlight, replayJournal } from '../../src/engine/journal-replay.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';

describe('journal replay: a cancel sent before a restart', () => {
  it('is remembered on the in-flight order, so a restart can settle it as cancelled rather than never placed', () => {
    const order = { market: 'BTC_USDT', side: 'buy' as const, type: 'limit' as const, price: '100', amount: '1' };
    const records: JournalRecord[] = [
      { t: 1, type: 'submit', strategyId: 's', clientOrderId: 's-1-1', order },
      { t: 2, type: 'outcome', strategyId: 's', clientOrderId: 's-1-1', state: 'unknown' },
      { t: 3, type: 'cancel', strategyId: 's', clientOrderId: 's-1-1' },
      { t: 4, type: 'submit', strategyId: 's', clientOrderId: 's-1-2', order },
    ];
    expect(inFlight(replayJournal(records)).map((o) => [o.clientOrderId, o.state, o.cancelSent === true])).toEqual([
      ['s-1-1', 'unknown', true],
      ['s-1-2', 'pending', false],
    ]);
  });
});
