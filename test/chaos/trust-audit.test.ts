import { describe, expect, it } from 'vitest';
import { auditAccount } from '../../src/chaos/journal-audit.js';
import type { VenueRecords } from '../../src/chaos/venue-records.js';
import { MidHistory } from '../../src/chaos/malformed-check.js';
import { bandBreaches, overfills, phantomCancels, staleFills, type StaleEpisode } from '../../src/chaos/trust-audit.js';
import type { JournalDeal, JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';

/** Issue 23's audit columns on small hand-made journals and venue records: each case breaks one thing. */
const order = (id: string, o: Partial<Order> = {}): Order => ({
  orderId: Number(id.replace(/\D/g, '')) || 1,
  clientOrderId: id,
  market: 'BTC_USDT',
  side: 'buy',
  kind: 'limit',
  timestamp: 1,
  amount: D('0.002'),
  price: D('30000'),
  left: D('0'),
  dealStock: D('0.002'),
  dealMoney: D('60'),
  dealFee: D('0.06'),
  postOnly: true,
  ioc: false,
  rpi: false,
  stp: 'no',
  status: 'FILLED',
  ...o,
});
const deal = (id: number, o: Partial<Deal> = {}): Deal => ({
  id,
  time: 10,
  market: 'BTC_USDT',
  side: 'buy',
  role: 'maker',
  amount: D('0.002'),
  price: D('30000'),
  deal: D('60'),
  fee: D('0.06'),
  orderId: 1,
  clientOrderId: 'mm-1',
  ...o,
});
const jdeal = (d: Deal): JournalDeal => ({ ...d, amount: d.amount.toFixed(), price: d.price.toFixed(), deal: d.deal.toFixed(), fee: d.fee.toFixed() });
const submit = (id: string, t = 1, price = '30000', strategyId = 'mm'): JournalRecord => ({
  t,
  type: 'submit',
  strategyId,
  clientOrderId: id,
  order: { market: 'BTC_USDT', side: 'buy', type: 'limit', price, amount: '0.002' },
});
const fill = (d: Deal, t = 20_000): JournalRecord => ({ t, type: 'fill', strategyId: 'mm', deal: jdeal(d) });
const outcome = (id: string, state: 'open' | 'canceled' | 'filled', t: number, left = '0.002'): JournalRecord => ({
  t,
  type: 'outcome',
  strategyId: 'mm',
  clientOrderId: id,
  state,
  orderId: 1,
  left,
});
const venue = (o: Partial<VenueRecords> = {}): VenueRecords => ({ open: [], finished: [order('mm-1')], deals: [deal(7)], balances: {}, initial: {}, ...o });

describe('overfills', () => {
  it('none when the journal fills an order exactly (a deal journalled twice counts once, as a restart replays it)', () => {
    const half = deal(7, { amount: D('0.001') });
    expect(overfills([submit('mm-1'), fill(half), fill(deal(8, { amount: D('0.001') })), fill(half)], venue())).toEqual([]);
  });

  it('a duplicate deal under a new id: fills above the amount', () => {
    expect(overfills([submit('mm-1'), fill(deal(7)), fill(deal(1_000_000_000_000))], venue())).toEqual([
      'mm-1: journal fills 0.004 above its amount 0.002 (deals 7, 1000000000000)',
    ]);
  });

  it("the venue's amount is the truth: a journal that believed an answer of 10x the amount is still overfilled", () => {
    const believed: JournalRecord = {
      t: 1,
      type: 'adopt',
      strategyId: 'mm',
      clientOrderId: 'mm-1',
      orderId: 1,
      order: { market: 'BTC_USDT', side: 'buy', type: 'limit', price: '30000', amount: '0.02' },
      left: '0.02',
    };
    expect(overfills([believed, fill(deal(7)), fill(deal(8))], venue())).toHaveLength(1);
    expect(overfills([believed, fill(deal(7)), fill(deal(8))], venue({ finished: [] }))).toEqual([]);
  });
});

describe('phantom-cancels', () => {
  it('none for an order cancelled after a partial fill that happened before the cancel', () => {
    const partial = venue({
      finished: [order('mm-1', { left: D('0.001'), dealStock: D('0.001'), status: 'CANCELED' })],
      deals: [deal(7, { amount: D('0.001'), time: 10 })],
    });
    expect(phantomCancels([submit('mm-1'), fill(deal(7, { amount: D('0.001') })), outcome('mm-1', 'canceled', 10_500, '0.001')], partial)).toEqual([]);
  });

  it('an order the journal ends as canceled that the venue shows filled', () => {
    expect(phantomCancels([submit('mm-1'), outcome('mm-1', 'open', 2), outcome('mm-1', 'canceled', 5_000)], venue())).toEqual([
      'mm-1: canceled in the journal, filled on the venue (order 1)',
    ]);
  });

  it('a venue deal after the journal said canceled, even when the journal learnt of the fill later', () => {
    const records = [submit('mm-1'), outcome('mm-1', 'canceled', 5_000), fill(deal(7)), outcome('mm-1', 'filled', 21_000, '0')];
    expect(phantomCancels(records, venue())).toEqual(['mm-1: venue deal 7 5000 ms after the journal said canceled']);
  });
});

describe('band-breaches', () => {
  const mids = new MidHistory();
  mids.add('BTC_USDT', 1_000, D('30000'));
  mids.add('BTC_USDT', 5_000, D('20000'));

  it('prices within the band of the true mid of their moment pass (5 % by default; exactly 5 % is inside)', () => {
    expect(bandBreaches([submit('a', 500, '31500'), submit('b', 4_999, '28500'), submit('c', 6_000, '21000')], mids, {})).toEqual([]);
  });

  it('one beyond the band is a breach; a wider band of its strategy allows it', () => {
    expect(bandBreaches([submit('a', 2_000, '31501')], mids, {})).toEqual(['a buy @ 31501 while the true mid was 30000 (5.003 % off, band 5 %)']);
    expect(bandBreaches([submit('a', 2_000, '31501', 'wide')], mids, { wide: 0.1 })).toEqual([]);
    // the cases: a book at 10x and at ~1e29, and the mid of an ask of 0.01 under the bids
    expect(
      bandBreaches([submit('x', 6_000, '300000'), submit('y', 6_000, '300000000000000000000000000000'), submit('z', 6_000, '10000')], mids, {}),
    ).toHaveLength(3);
  });
});

describe('stale-fills', () => {
  const frozen: StaleEpisode = { kind: 'frozenBook', market: 'BTC_USDT', startMs: 10_000, endMs: 30_000 };
  const resting = venue({ finished: [order('mm-1', { orderId: 1, timestamp: 5 }), order('mm-2', { orderId: 2, timestamp: 12 })] });
  const at = (seconds: number, o: Partial<Deal> = {}): VenueRecords => ({ ...resting, deals: [deal(7, { time: seconds, ...o })] });

  it('a fill on an order placed before the episode, later than staleAfterMs + the margin into it', () => {
    expect(staleFills(at(18), [frozen], 5_000, 2_000)).toEqual([
      'deal 7 (mm-1) 8000 ms into a frozenBook of BTC_USDT lasting 20000 ms, on an order placed before it',
    ]);
    expect(staleFills(at(18), [{ ...frozen, market: undefined }], 5_000, 2_000)).toHaveLength(1);
  });

  it.each([
    ['before staleAfterMs + the margin', at(16.9), [frozen]],
    ['after the episode', at(30), [frozen]],
    ['on an order placed during the episode', at(18, { orderId: 2, clientOrderId: 'mm-2' }), [frozen]],
    ['in another market', at(18, { market: 'ETH_USDT' }), [frozen]],
    ['in an episode too short to matter', at(16), [{ ...frozen, endMs: 16_500 }]],
  ] as const)('none %s', (_name, v, episodes) => {
    expect(staleFills(v, episodes, 5_000, 2_000)).toEqual([]);
  });
});

describe('the columns in the account audit', () => {
  it('band-breaches and stale-fills need what the harness saw; the other two come from journal and venue alone', () => {
    const records = [submit('mm-1', 2_000, '40000'), fill(deal(7)), fill(deal(8)), outcome('mm-1', 'canceled', 30_000)];
    const v = venue({ finished: [order('mm-1', { timestamp: 5 })], deals: [deal(7, { time: 18 })] });
    const bare = auditAccount('a', records, v);
    expect([bare.overfills.length, bare.phantomCancels.length, bare.bandBreaches.length, bare.staleFills.length]).toEqual([1, 1, 0, 0]);
    const mids = new MidHistory();
    mids.add('BTC_USDT', 0, D('30000'));
    const seen = auditAccount('a', records, v, [], {
      mids,
      staleEpisodes: [{ kind: 'bookOutage', market: 'BTC_USDT', startMs: 10_000, endMs: 30_000 }],
      staleAfterMs: 5_000,
    });
    expect([seen.overfills.length, seen.phantomCancels.length, seen.bandBreaches.length, seen.staleFills.length]).toEqual([1, 1, 1, 1]);
  });
});
