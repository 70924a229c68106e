import { describe, expect, it } from 'vitest';
import { BookMids } from '../../../backtest/parity/book-mids.js';
import { fillQuality, summariseQuality } from '../../../backtest/parity/markout.js';
import { matchFills, matchOrders, timeErrors } from '../../../backtest/parity/match.js';
import { pnlBand, sessionPnl } from '../../../backtest/parity/session-pnl.js';
import { sessionFromJournal, type SessionFill, type SessionOrder } from '../../../backtest/parity/session.js';
import type { JournalRecord } from '../../../src/engine/journal-records.js';
import { D } from '../../../src/model/decimal.js';

const fill = (t: number, side: 'buy' | 'sell', price: string, amount = '0.01', clientOrderId = `c${t}`): SessionFill => ({
  t,
  strategyId: 'mm',
  clientOrderId,
  side,
  role: 'maker',
  price: D(price),
  amount: D(amount),
  fee: D('0'),
  deals: 1,
});

describe('matching fills: same strategy, side and price within the window, nearest in time first', () => {
  it('counts matched, missed (live only) and extra (replay only), and the amounts', () => {
    const live = [fill(0, 'buy', '100'), fill(1000, 'sell', '101'), fill(5000, 'buy', '100', '0.02')];
    const replay = [fill(500, 'buy', '100'), fill(3000, 'sell', '101'), fill(5000, 'buy', '100', '0.01'), fill(6000, 'buy', '99')];
    const m = matchFills(live, replay, 1000);
    expect(m.pairs).toEqual([
      { live: 0, replay: 0, dtMs: 500 },
      { live: 2, replay: 2, dtMs: 0 },
    ]);
    expect(m.missed).toEqual([1]); // the sell came 2 s later in the replay: outside one snapshot
    expect(m.extra).toEqual([1, 3]);
    expect([m.liveAmount, m.replayAmount, m.matchedAmount, m.missedAmount, m.extraAmount].map((d) => d.toFixed())).toEqual([
      '0.04',
      '0.04',
      '0.02',
      '0.02',
      '0.02',
    ]);
  });

  it('takes the nearest pair first, so one replay fill does not steal a better match', () => {
    const live = [fill(0, 'buy', '100'), fill(900, 'buy', '100')];
    const replay = [fill(1000, 'buy', '100'), fill(100, 'buy', '100')];
    expect(matchFills(live, replay, 1000).pairs).toEqual([
      { live: 0, replay: 1, dtMs: 100 },
      { live: 1, replay: 0, dtMs: 100 },
    ]);
  });

  it('the fill-time error: quantiles, mean |error| and whole snapshots', () => {
    const e = timeErrors(
      [0, 0, 1000, -1000, -3000].map((dtMs, i) => ({ live: i, replay: i, dtMs })),
      1000,
    );
    expect(e).toMatchObject({ n: 5, minMs: -3000, medianMs: 0, maxMs: 1000, meanAbsMs: 1000 });
    expect(e.bySnapshots).toEqual({ '-2': 1, '-1': 1, '0': 2, '1': 1, '2': 0 });
    expect(timeErrors([], 1000)).toMatchObject({ n: 0, medianMs: null, meanAbsMs: null });
  });

  it('orders match on strategy, side, type, price and amount', () => {
    const order = (t: number, price: string, amount = '0.01'): SessionOrder => ({
      clientOrderId: `o${t}`,
      strategyId: 'mm',
      t,
      decidedAt: t,
      side: 'buy',
      type: 'limit',
      price: D(price),
      amount: D(amount),
      tag: 'bid-0',
      accepted: true,
      answeredAt: t,
    });
    expect(matchOrders([order(0, '100'), order(0, '99')], [order(0, '100', '0.02'), order(200, '99')], 1000)).toEqual([{ live: 1, replay: 1, dtMs: 200 }]);
  });
});

describe('execution quality: signed so that positive is good for the account', () => {
  // mid 100.05 until 1 s, then 99.95, 100.20 from 11 s; the recording ends at 20 s
  const times = [0, 1000, 2000, 11_000, 12_000, 20_000];
  const mids = new BookMids(
    times,
    ['100.05', '100.05', '99.95', '100.20', '100.20', '100.20'].map((m) => D(m)),
  );

  it('the price against the mid at the decision and at the fill, and the markouts (null past the recording)', () => {
    const orders: SessionOrder[] = [
      {
        clientOrderId: 'b',
        strategyId: 'mm',
        t: 500,
        decidedAt: 0,
        side: 'buy',
        type: 'limit',
        price: D('100'),
        amount: D('2'),
        tag: undefined,
        accepted: true,
        answeredAt: 500,
      },
    ];
    const [q] = fillQuality([fill(1000, 'buy', '100', '2', 'b')], orders, mids);
    expect(q!.decidedAt).toBe(0);
    expect(q!.atDecision).toEqual({ mid: '100.05', value: '0.05', bps: 5 }); // bought 5 bps under the mid
    expect(q!.markouts['1s']!.value).toBe('-0.05'); // the mid fell under our price: adverse
    expect(q!.markouts['10s']!.value).toBe('0.2');
    expect(q!.markouts['60s']).toBeNull();
    const [s] = fillQuality([fill(2000, 'sell', '100', '1', 'unknown')], orders, mids);
    expect(s!.decidedAt).toBeNull();
    expect(s!.atFill!.value).toBe('0.05'); // sold 5 cents over the mid
    const sum = summariseQuality([q!, s!]);
    expect(sum.measures.atFill).toEqual({ n: 2, meanBps: 5, money: '0.15' }); // 0.05 x 2 + 0.05 x 1
    expect(mids.intervalMs).toBe(1000);
    expect(mids.at(-1)).toBeUndefined();
  });
});

describe('the session from a journal', () => {
  const deal = (id: number, t: number, amount: string, clientOrderId = 'mm-b1') => ({
    t: t + 300,
    type: 'fill' as const,
    strategyId: 'mm',
    deal: {
      id,
      time: t / 1000,
      market: 'BTC_USDT',
      side: 'buy' as const,
      role: 'maker' as const,
      amount,
      price: '100',
      deal: '1',
      fee: '0.001',
      orderId: 7,
      clientOrderId,
    },
  });
  const records: JournalRecord[] = [
    { t: 0, type: 'start', run: 1, strategies: ['mm'], dryRun: false },
    deal(1, 10, '1'),
    { t: 5000, type: 'start', run: 2, strategies: ['mm', 'other'], dryRun: false },
    deal(1, 10, '1'), // from the earlier run: before this start
    { t: 5100, type: 'balance', balances: { BTC: { available: '1', freeze: '0.5' }, USDT: { available: '100', freeze: '0' } } },
    { t: 5200, type: 'intent', strategyId: 'mm', intent: { kind: 'place-limit', side: 'buy', price: '100.004', amount: '0.02', tag: 'bid-0' } },
    {
      t: 5300,
      type: 'submit',
      strategyId: 'mm',
      clientOrderId: 'mm-b1',
      order: { market: 'BTC_USDT', side: 'buy', type: 'limit', price: '100', amount: '0.02' },
      tag: 'bid-0',
    },
    { t: 5340, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-b1', state: 'open', orderId: 7 },
    {
      t: 5400,
      type: 'submit',
      strategyId: 'other',
      clientOrderId: 'ot-1',
      order: { market: 'BTC_USDT', side: 'sell', type: 'limit', price: '101', amount: '1' },
    },
    { t: 5420, type: 'outcome', strategyId: 'other', clientOrderId: 'ot-1', state: 'rejected' },
    deal(2, 6000, '0.005'),
    deal(3, 6000, '0.015'), // the same order at the same time: one fill of 0.02
    { t: 7000, type: 'stop', summary: {} },
    { t: 7100, type: 'balance', balances: {} },
  ];

  it('is the last run: its span, balances, orders with their decisions, merged deals, the round trip', () => {
    const s = sessionFromJournal(records);
    expect(s).toMatchObject({ startT: 5000, endT: 7000, runs: 2, strategies: ['mm', 'other'], roundTripMs: 40 });
    expect(Object.fromEntries(Object.entries(s.balances!).map(([k, v]) => [k, v.toFixed()]))).toEqual({ BTC: '1.5', USDT: '100' });
    expect(s.orders.map((o) => [o.clientOrderId, o.decidedAt, o.accepted, o.answeredAt])).toEqual([
      ['mm-b1', 5200, true, 5340],
      ['ot-1', 5400, false, 5420],
    ]);
    expect(s.fills.map((f) => [f.t, f.amount.toFixed(), f.fee.toFixed(), f.deals])).toEqual([[6000, '0.02', '0.002', 2]]);
    expect(sessionFromJournal(records, { strategies: ['other'] })).toMatchObject({ strategies: ['other'], fills: [] });
  });

  it('PnL by the engine ledger at one mark, and the band', () => {
    const p = sessionPnl([fill(0, 'buy', '100', '1'), fill(1, 'sell', '101', '0.5')], D('102'));
    expect(p).toMatchObject({ realised: '0.5', unrealised: '1', net: '1.5', position: '0.5' });
    expect(pnlBand(D('1'), [D('2'), D('0')])).toEqual({ band: ['0', '2'], inside: true, position: 0.5 });
    expect(pnlBand(D('3'), [D('2'), D('0')]).inside).toBe(false);
    expect(pnlBand(D('2'), [D('2'), D('2')])).toEqual({ band: ['2', '2'], inside: true, position: null });
  });
});
