import { describe, expect, it } from 'vitest';
import { MemoryJournal, type Journal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import { cancel, placeLimit } from '../../src/strategy/intents.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

/** Places a bid and an ask, cancels the ask once both rest; the test fills the bid. */
const probe = strategyOf((_ctx, orders) => {
  if (orders.length === 0)
    return [placeLimit({ side: 'buy', price: D('99'), amount: D('1'), tag: 'bid' }), placeLimit({ side: 'sell', price: D('105'), amount: D('1'), tag: 'ask' })];
  const ask = orders.find((o) => o.tag === 'ask' && o.state === 'open' && !o.cancelRequested);
  return ask === undefined ? [] : [cancel(ask.clientOrderId)];
});

async function run(journal: Journal) {
  const venue = new FakeVenue(market, '100', '101');
  const rig = virtualRig(venue, [{ id: 'p', definition: probe, params: {}, market: market.name }], { journal });
  await rig.runtime.start();
  await rig.advance(500);
  const bid = [...venue.orders.values()].find((o) => o.side === 'buy')!;
  venue.fill(bid.clientOrderId, D('1'), rig.scheduler.now() / 1000);
  await rig.advance(2000);
  const summary = await rig.runtime.stop();
  return { events: rig.events.map((e) => JSON.stringify(e)), summary: JSON.stringify(summary), calls: venue.calls };
}

describe('a journal that discards its records (Journal.discards, the backtest without a kept journal)', () => {
  it('is not handed the records of the hot paths, and the run decides exactly as with a journal that keeps them', async () => {
    const appended: JournalRecord['type'][] = [];
    const discarding: Journal = { discards: true, append: (r) => void appended.push(r.type), records: () => [], close: () => undefined };
    const kept = new MemoryJournal();
    const [dropped, full] = [await run(discarding), await run(kept)];
    const types = new Set(kept.records().map((r) => r.type));
    // the kept run made every kind of hot-path record: intents, submissions, outcomes, a fill, balances
    for (const t of ['intent', 'submit', 'outcome', 'fill', 'balance', 'cancel'] as const) expect(types.has(t)).toBe(true);
    expect(appended.filter((t) => ['intent', 'submit', 'outcome', 'fill'].includes(t))).toEqual([]);
    // the polled balances are neither compared nor journalled; the stop's own balance record (not a hot path) is
    expect(kept.records().filter((r) => r.type === 'balance').length).toBeGreaterThan(1);
    expect(appended.filter((t) => t === 'balance')).toHaveLength(1);
    expect(appended).toEqual(expect.arrayContaining(['start', 'cancel', 'stop']));
    expect(dropped).toEqual(full);
  });
});
