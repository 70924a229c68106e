import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileJournal, MemoryJournal, parseJournalText } from '../../src/engine/journal.js';
import { inFlight, leftOf, replayJournal } from '../../src/engine/journal-replay.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { waitUntil } from '../helpers/wait-until.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const order = { market: 'BTC_USDT', side: 'buy' as const, type: 'limit' as const, price: '100', amount: '1' };
const fill = (id: number, clientOrderId: string, amount: string) => ({
  t: 3,
  type: 'fill' as const,
  strategyId: 'mm',
  deal: {
    id,
    time: 1,
    market: 'BTC_USDT',
    side: 'buy' as const,
    role: 'maker' as const,
    amount,
    price: '100',
    deal: '1',
    fee: '0.1',
    orderId: 1,
    clientOrderId,
  },
});

describe('journal', () => {
  it('replay rebuilds in-flight orders, fills (once per deal id), tags and the last run', () => {
    const records: JournalRecord[] = [
      { t: 1, type: 'start', run: 500, strategies: ['mm'], dryRun: false },
      { t: 2, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-dw-1', order, tag: 'bid-0' },
      { t: 2, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-dw-1', state: 'open', orderId: 1, left: '1' },
      fill(10, 'mm-dw-1', '0.25'),
      fill(10, 'mm-dw-1', '0.25'),
      { t: 4, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-dw-2', order },
      { t: 5, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-dw-3', order },
      { t: 6, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-dw-3', state: 'rejected', reason: 'venue:10' },
    ];
    const s = replayJournal(records);
    expect(s.lastRun).toBe(parseInt('dw', 36));
    expect([...s.dealIds]).toEqual([10]);
    expect(s.fills.get('mm')).toHaveLength(1);
    const open = s.orders.get('mm-dw-1')!;
    expect(open).toMatchObject({ state: 'partially-filled', tag: 'bid-0', orderId: 1 });
    expect(leftOf(open).toFixed()).toBe('0.75');
    expect(
      inFlight(s)
        .map((o) => o.clientOrderId)
        .sort(),
    ).toEqual(['mm-dw-1', 'mm-dw-2']);
    expect(s.orders.get('mm-dw-2')?.state).toBe('pending');
  });

  it('FileJournal appends synchronously and a restart reads what was written; a torn last line is cut off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const path = join(dir, 'sub', 'j.jsonl');
    const j = new FileJournal(path, { fsync: 'submissions' });
    j.append({ t: 1, type: 'start', run: 1, strategies: [], dryRun: false });
    j.append({ t: 2, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-1-1', order });
    // no close(): the bytes are already in the file (what SIGKILL would leave)
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    appendFileSync(path, '{"t":3,"type":"fi');
    const again = new FileJournal(path);
    expect(again.skipped).toBe(1);
    expect(again.torn).toMatchObject({ line: 3, bytes: 17 });
    again.append({ t: 4, type: 'cancel', strategyId: 'mm', clientOrderId: 'mm-1-1' });
    again.close();
    // cut off, not left mid-file: the next start would take it for damage
    const { records, skipped } = parseJournalText(readFileSync(path, 'utf8'));
    expect(records.map((r) => r.type)).toEqual(['start', 'submit', 'cancel']);
    expect(skipped).toBe(0);
    const third = new FileJournal(path);
    expect([third.skipped, third.replayed().length]).toEqual([0, 3]);
    third.close();
    j.close();
  });

  it('the background policy writes through at once (fsync off the order path) and is the default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    dirs.push(dir);
    const path = join(dir, 'j.jsonl');
    let synced: () => void = () => {};
    const fsynced = new Promise<void>((r) => (synced = r));
    const j = new FileJournal(path, { onFsync: () => synced() });
    for (let i = 0; i < 50; i++) j.append({ t: i, type: 'cancel', strategyId: 'mm', clientOrderId: `mm-1-${i}` });
    // every record is in the file when append returns, with fsyncs still in flight
    expect(parseJournalText(readFileSync(path, 'utf8')).records).toHaveLength(50);
    await fsynced; // a background fsync came back
    j.append({ t: 99, type: 'halt', strategyId: 'mm', reason: 'r' });
    j.close();
    expect(parseJournalText(readFileSync(path, 'utf8')).records).toHaveLength(51);
  });

  it('a failed background fsync stops the journal: the next append throws (the engine stops sending)', async () => {
    // fsync(2) on /dev/null fails with EINVAL while write(2) succeeds
    const j = new FileJournal('/dev/null', { fsync: 'background' });
    j.append({ t: 1, type: 'halt', strategyId: 'mm', reason: 'r' });
    await waitUntil('the background fsync to fail', () => !j.writable());
    expect(() => j.append({ t: 2, type: 'halt', strategyId: 'mm', reason: 'r' })).toThrow(/background fsync failed/);
    expect(() =>
      new FileJournal('/dev/null', { fsync: 'submissions' }).append({ t: 1, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-1-1', order }),
    ).toThrow();
  });

  it('MemoryJournal keeps records in order', () => {
    const m = new MemoryJournal();
    m.append({ t: 1, type: 'halt', strategyId: 'x', reason: 'r' });
    expect(m.records()).toEqual([{ t: 1, type: 'halt', strategyId: 'x', reason: 'r' }]);
  });
});
