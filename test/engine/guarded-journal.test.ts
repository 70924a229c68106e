import { describe, expect, it } from 'vitest';
import { GuardedJournal } from '../../src/engine/guarded-journal.js';
import { JournalError, MemoryJournal, type Journal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import { placeLimit } from '../../src/strategy/intents.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

/** A journal whose writes fail with `code` from the `failFrom`-th on, until `heal()` (e.g. EACCES on a remote disk). */
class FailingJournal implements Journal {
  readonly inner = new MemoryJournal();
  private n = 0;
  private healed = false;
  constructor(
    private readonly failFrom: number,
    private readonly code: string,
  ) {}
  append(record: JournalRecord): void {
    this.n += 1;
    if (!this.healed && this.n >= this.failFrom) throw Object.assign(new Error(`${this.code}: permission denied, write`), { code: this.code });
    this.inner.append(record);
  }
  heal(): void {
    this.healed = true;
  }
  records(): JournalRecord[] {
    return this.inner.records();
  }
  close(): void {}
}

const rec = (t: number): JournalRecord => ({ t, type: 'cancel', strategyId: 's', clientOrderId: `c-${t}` });
const submit = (t: number): JournalRecord => ({
  t,
  type: 'submit',
  strategyId: 's',
  clientOrderId: `s-${t}`,
  order: { market: 'BTC_USDT', side: 'buy', type: 'limit', price: '1', amount: '1' },
});

describe('GuardedJournal', () => {
  it('the first failed write starts the emergency once; from then submits are refused, the rest kept and written at close when it can', () => {
    const inner = new FailingJournal(2, 'EACCES');
    const failures: JournalError[] = [];
    const j = new GuardedJournal(inner, (e) => failures.push(e));
    j.append(rec(1));
    j.append(rec(2));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.message).toMatch(/EACCES/);
    expect(() => j.append(submit(3))).toThrow(/not sent/);
    j.append(rec(4));
    expect(failures).toHaveLength(1);
    expect(j.lost).toBe(2);
    inner.heal();
    j.close();
    expect(inner.records().map((r) => r.t)).toEqual([1, 2, 4]);
    expect(j.lost).toBe(0);
  });
});

describe('a journal write failure in the engine (EACCES)', () => {
  it('no order is sent without its record; the emergency stop cancels every open order', async () => {
    const venue = new FakeVenue(market, '100', '101');
    const failing = new FailingJournal(1_000_000, 'EACCES');
    let causes = 0;
    const journal = new GuardedJournal(failing, () => (causes += 1));
    let n = 0;
    const ladder = strategyOf(() => [placeLimit({ side: 'buy', price: D(96 + (n++ % 5)), amount: D('0.02') })]);
    const rig = virtualRig(venue, [{ id: 'p', definition: ladder, params: {}, market: market.name }], { journal });
    await rig.runtime.start();
    await rig.advance(300);
    const placed = venue.calls.filter((c) => c.startsWith('place')).length;
    expect(placed).toBeGreaterThan(0);
    // the disk refuses from now on
    (failing as unknown as { failFrom: number }).failFrom = 0;
    await rig.advance(500).catch(() => undefined);
    expect(causes).toBe(1);
    // a submit that could not be journalled was not sent (at most the one whose record was written before)
    expect(venue.calls.filter((c) => c.startsWith('place')).length).toBeLessThanOrEqual(placed + 1);
    const stopping = rig.runtime.stop({ cancelOpenOrders: true });
    await rig.advance(2000);
    await stopping;
    expect(venue.orders.size).toBe(0);
  });
});
