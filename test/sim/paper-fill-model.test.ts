import { describe, expect, it } from 'vitest';
import { dealAgainstOrder } from '../../src/engine/answer-check.js';
import { fillStep, initialQueue, type FillAssumption } from '../../src/fill-model/fill-model.js';
import type { FillModelParams } from '../../src/fill-model/fill-model-params.js';
import type { OrderBook, PublicTrade } from '../../src/model/book.js';
import { D, fmt, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { snapshotOfBook } from '../../src/recording/book-snapshot.js';
import { priceToTicks } from '../../src/recording/recording-format.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { createLiveFlow } from '../../src/sim/live-flow.js';
import { paperSimConfig } from '../../src/sim/paper-sim-config.js';
import type { SimTrade } from '../../src/sim/sim-types.js';
import { startSim } from '../../src/sim/start-sim.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { HandFeed, btcUsdt, levelsBook } from '../helpers/live-feed.js';

/**
 * The paper venue's fill model (src/sim/paper-fill-model.ts): the live flow fills a client's resting order by the
 * backtest's fill model, beyond what the mirrored book's crossing gives, as maker against the flow account.
 */
const M = 'BTC_USDT';
const FLOW = 'market';
const market = btcUsdt({ stockPrec: 4, minAmount: D('0.0001'), minTotal: D('1') });
const T0 = 1_700_000_000_000;

const book = (bids: Array<[string, string]>, asks: Array<[string, string]>): OrderBook => levelsBook(M, bids, asks);

let tradeId = 0;
/** An upstream trade `ms` after T0; `takerSide` the aggressor. */
const trade = (ms: number, price: string, amount: string, takerSide: 'buy' | 'sell'): PublicTrade => ({
  market: M,
  id: ++tradeId,
  time: T0 + ms,
  price: D(price),
  amount: D(amount),
  takerSide,
  value: D(price).mul(amount),
});

interface SetupOptions {
  readonly fills?: FillAssumption;
  readonly fillModel?: FillModelParams;
  readonly staleAfterMs?: number;
}

function setup(o: SetupOptions = {}) {
  const clock = { now: T0 };
  const ex = new SimExchange(paperSimConfig({ markets: [market], balances: { BTC: D('10'), USDT: D('100000') }, account: 'paper' }), () => clock.now);
  const feed = new HandFeed();
  const flow = createLiveFlow({ feed, markets: [M], staleAfterMs: o.staleAfterMs ?? 3000, fills: o.fills, fillModel: o.fillModel });
  /** One flow step `ms` later, with the upstream's book (if any) and the trades polled since the last step. */
  const step = (ms: number, b?: OrderBook, trades: PublicTrade[] = []): void => {
    clock.now += ms;
    feed.book = b;
    feed.trades = trades;
    flow.step(ex, clock.now);
  };
  const place = (side: 'buy' | 'sell', amount: string, price: string) => {
    const r = ex.placeLimit('paper', { market: M, side, amount: D(amount), price: D(price) });
    if (!r.ok) throw new Error(r.message);
    return r.order;
  };
  const deals = (account = 'paper') => ex.deals(account).map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount)]);
  return { ex, clock, step, place, deals };
}

const B0 = book(
  [
    ['100', '2'],
    ['99', '1'],
  ],
  [
    ['101', '1'],
    ['102', '3'],
  ],
);

describe('paper venue fill model: pessimistic (the default)', () => {
  it('fills a resting buy by sell trades through its price and at it beyond the queue ahead, the book never trading through it', () => {
    const { ex, clock, step, place, deals } = setup();
    const tape: SimTrade[] = [];
    ex.onTrade((t) => tape.push(t));
    step(250, B0);
    const early = trade(300, '99', '5', 'sell'); // before our order: no evidence for it
    clock.now += 100;
    const bid = place('buy', '0.5', '100'); // behind the upstream's 2 at 100
    const placedAt = clock.now - T0;
    // the same book again: nothing at or through 100 on the ask side, the bid at 100 as it was
    step(150, B0, [early, trade(placedAt + 10, '99.5', '0.1', 'sell'), trade(placedAt + 20, '100', '2.3', 'sell'), trade(placedAt + 30, '101', '1', 'buy')]);
    // Vt = 0.1 (through 100), Vp = 2.3 at 100 with 2 ahead: 0.3; the buy-aggressor trade and the early sell count nothing
    expect(deals()).toEqual([['buy', 'maker', '100', '0.4']]);
    expect(deals(FLOW)).toEqual([['sell', 'taker', '100', '0.4']]);
    const o = ex.findOrder('paper', bid.orderId)!;
    expect([o.status, fmt(o.left), fmt(o.dealStock), fmt(o.dealMoney), fmt(o.dealFee)]).toEqual(['PARTIALLY_FILLED', '0.1', '0.4', '40', '0.04']);
    // printed on the tape as matching prints a fill (taker side: the unseen seller), before the upstream's prints
    expect(tape.map((t) => [fmt(t.price), fmt(t.amount), t.takerSide])).toEqual([
      ['100', '0.4', 'sell'],
      ['99', '5', 'sell'],
      ['99.5', '0.1', 'sell'],
      ['100', '2.3', 'sell'],
      ['101', '1', 'buy'],
    ]);
    // the queue ahead was used up by the 2.3: the next sell trade at 100 fills the rest
    step(250, B0, [trade(placedAt + 300, '100', '0.25', 'sell')]);
    expect(deals()).toEqual([
      ['buy', 'maker', '100', '0.1'],
      ['buy', 'maker', '100', '0.4'],
    ]);
    expect(ex.isOrderOpen('paper', bid.orderId)).toBe(false);
    expect(ex.findOrder('paper', bid.orderId)?.status).toBe('FILLED');
    // the mirrored book is as the upstream's: the model's fills took nothing from it
    expect(ex.book(M).bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`)).toEqual(['100x2', '99x1']);
  });

  it('counts the mirror’s crossing in the same step: the model fills only the rest', () => {
    const { step, place, deals, clock } = setup();
    step(250, B0);
    place('buy', '0.5', '100');
    const at = clock.now - T0;
    // a seller rests at 100 (X1 = 0.2: the mirror's order crosses ours) and 0.1 traded through 100 (Vt)
    step(
      250,
      book(
        [['99', '1']],
        [
          ['100', '0.2'],
          ['101', '1'],
        ],
      ),
      [trade(at + 10, '99', '0.1', 'sell')],
    );
    // the model says 0.2 + 0.1; the crossing (the flow's new ask meeting ours, ours the maker) gave the 0.2, the model the rest
    expect(deals()).toEqual([
      ['buy', 'maker', '100', '0.1'],
      ['buy', 'maker', '100', '0.2'],
    ]);
  });

  it('rounds the model’s fill down to the amount step, and never fills beyond what is left', () => {
    const { ex, step, place, deals, clock } = setup();
    step(250, B0);
    const bid = place('buy', '0.5', '100');
    const at = clock.now - T0;
    step(250, B0, [trade(at + 10, '99', '0.12345', 'sell')]);
    expect(deals()).toEqual([['buy', 'maker', '100', '0.1234']]);
    step(250, B0, [trade(at + 300, '99', '7', 'sell')]);
    expect(deals()).toEqual([
      ['buy', 'maker', '100', '0.3766'],
      ['buy', 'maker', '100', '0.1234'],
    ]);
    expect(ex.findOrder('paper', bid.orderId)?.status).toBe('FILLED');
  });
});

describe('paper venue fill model: optimistic', () => {
  // the bid at 100 shrinks by 1 while 1 trades there (sell aggressor): a decrease the trades explain
  const run = (fills: FillAssumption, fillModel?: FillModelParams) => {
    const { step, place, deals, clock } = setup({ fills, ...(fillModel ? { fillModel } : {}) });
    step(250, book([['100', '2']], [['101', '1']]));
    place('buy', '0.5', '100');
    const at = clock.now - T0;
    step(250, book([['100', '1']], [['101', '1']]), [trade(at + 10, '100', '1', 'sell')]);
    return deals();
  };

  it('fills an order at the front of the queue (queueAhead 0) by a traded decrease at its price; pessimistic does not', () => {
    expect(run('optimistic', { queueAhead: 0, decreaseTrades: 1 })).toEqual([['buy', 'maker', '100', '0.5']]);
    expect(run('pessimistic')).toEqual([]);
    // the pessimistic bound has no parameters: the block changes nothing there
    expect(run('pessimistic', { queueAhead: 0, decreaseTrades: 1 })).toEqual([]);
    // optimistic at the back of the queue (the default): the 2 ahead have not traded yet
    expect(run('optimistic')).toEqual([]);
  });

  it('reads an untraded decrease as cancellations (the upstream’s trades are polled), and fills all once the book is through', () => {
    const { step, place, deals, clock } = setup({ fills: 'optimistic', fillModel: { queueAhead: 0, decreaseTrades: 1 } });
    step(250, book([['100', '2']], [['101', '1']]));
    place('buy', '0.5', '100');
    const at = clock.now - T0;
    step(250, book([['100', '1']], [['101', '1']]));
    expect(deals()).toEqual([]);
    // a seller rests at 100 with only 0.1: optimistic fills all that is left (the mirror's crossing 0.1, the model 0.4)
    step(250, book([['99', '1']], [['100', '0.1']]), [trade(at + 400, '101', '0.3', 'buy')]);
    expect(deals()).toEqual([
      ['buy', 'maker', '100', '0.4'],
      ['buy', 'maker', '100', '0.1'],
    ]);
  });
});

describe('paper venue fill model: a stale upstream (a gap in the recording, as the backtest steps across one)', () => {
  it('fills nothing while stale; the first fresh book is one fillStep from the last book before the spell, with the spell’s trades', () => {
    const { ex, step, place, deals, clock } = setup({ staleAfterMs: 1000 });
    step(250, B0);
    const bid = place('buy', '1', '100');
    const at = clock.now - T0;
    // a seller rests at 100 (X0 = 0.2): the mirror's ask crosses the buy, the model agrees
    const B1 = book(
      [['99', '1']],
      [
        ['100', '0.2'],
        ['101', '1'],
      ],
    );
    step(250, B1);
    expect(deals()).toEqual([['buy', 'maker', '100', '0.2']]);
    for (let i = 0; i < 4; i++) step(250); // 1 s without a book: stale
    const flowOrders = () => ex.openOrders(FLOW, { market: M, limit: 100 }).length;
    expect(flowOrders()).toBe(0);
    // trades through and at our price in the spell (and a buyer's, no evidence): nothing fills while stale
    const spell = [trade(at + 1300, '99', '0.05', 'sell'), trade(at + 1310, '101', '0.3', 'buy'), trade(at + 1500, '100', '0.1', 'sell')];
    step(250, undefined, spell.slice(0, 2));
    step(250, undefined, spell.slice(2));
    expect(deals()).toEqual([['buy', 'maker', '100', '0.2']]);
    // fresh: sellers through 100 are 0.4 now (X1), 0.2 of them seen before the spell (X0)
    const B2 = book(
      [['99', '1']],
      [
        ['99.5', '0.3'],
        ['100', '0.1'],
        ['101', '1'],
      ],
    );
    step(250, B2);
    // the backtest's model, stepping from the pre-spell book B1 to B2 with the spell's trades
    const snap = (b: OrderBook, ms: number) => snapshotOfBook(b, T0 + ms, market.moneyPrec);
    const ticks = priceToTicks('100', 100);
    const step1 = fillStep({
      side: 'buy',
      priceTicks: ticks,
      left: D('1'),
      state: initialQueue(snap(B0, 250), 'buy', ticks),
      before: snap(B0, 250),
      after: snap(B1, 500),
      trades: [],
      hasTrades: true,
      assumption: 'pessimistic',
    });
    const step2 = fillStep({
      side: 'buy',
      priceTicks: ticks,
      left: D('1').sub(step1.fill),
      state: step1.state,
      before: snap(B1, 500),
      after: snap(B2, 2000),
      trades: spell.map((t) => ({ t: t.time, priceTicks: priceToTicks(t.price.toFixed(), 100), amount: t.amount, takerSide: t.takerSide })),
      hasTrades: true,
      assumption: 'pessimistic',
    });
    // (X1 - X0) 0.2 + Vt 0.05 + Vp 0.1 beyond an empty queue (the book was through 100): 0.35, where forgetting the
    // queues and the eaten memory gave 0.4 (the mirror's 0.4 through 100 crossing anew, no trade counted)
    expect(fmt(step2.fill)).toBe('0.35');
    const resumed = ex.deals('paper').slice(0, -1);
    expect(fmt(resumed.reduce((s, d) => s.add(d.amount), ZERO))).toBe(fmt(step2.fill));
    expect(deals()).toEqual([
      ['buy', 'maker', '100', '0.15'],
      ['buy', 'maker', '100', '0.2'],
      ['buy', 'maker', '100', '0.2'],
    ]);
    expect(fmt(ex.findOrder('paper', bid.orderId)!.left)).toBe('0.45');
    // the same book again: no new seller, no trade, no fill
    step(250, B2);
    expect(deals()).toHaveLength(3);
  });

  it('keeps the queue position gained before the spell', () => {
    const { step, place, deals, clock } = setup({ staleAfterMs: 1000 });
    step(250, B0);
    place('buy', '0.5', '100');
    const at = clock.now - T0;
    // 2 trade at 100: the queue ahead is used up, nothing for us yet (we are at the front now)
    step(250, B0, [trade(at + 10, '100', '2', 'sell')]);
    expect(deals()).toEqual([]);
    for (let i = 0; i < 4; i++) step(250); // 1 s without a book: stale
    step(250, undefined, [trade(at + 1200, '100', '0.3', 'sell')]);
    expect(deals()).toEqual([]);
    // fresh again, the same book: at the front of the queue, the spell's 0.3 traded at 100 is ours
    step(250, B0);
    expect(deals()).toEqual([['buy', 'maker', '100', '0.3']]);
  });
});

describe('paper venue fill model: balances', () => {
  const sum = (xs: readonly Decimal[]): Decimal => xs.reduce((s, x) => s.add(x), ZERO);

  it('conserve over the paper and flow accounts and the fees collected, after fills of both kinds (crossing and model), buys and sells', () => {
    const { ex, step, place, clock } = setup();
    const totals = () => ['BTC', 'USDT'].map((a) => fmt(ex.totals(a)));
    const paper = () => ex.tradeBalances('paper');
    step(250, B0);
    const before = { totals: totals(), paper: paper() };
    place('buy', '0.5', '100');
    place('sell', '0.7', '101.5');
    const at = clock.now - T0;
    // the bid fills by trades (model), the ask by a bid through it (crossing) and a buy trade through it (model)
    step(250, book([['101.6', '0.2']], [['102', '1']]), [trade(at + 10, '99', '0.3', 'sell'), trade(at + 20, '102', '0.25', 'buy')]);
    const mine = ex.deals('paper');
    expect(mine.map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount)])).toEqual([
      ['sell', 'maker', '101.5', '0.25'],
      ['buy', 'maker', '100', '0.3'],
      ['sell', 'maker', '101.5', '0.2'],
    ]);
    expect(totals()).toEqual(before.totals);
    // the paper account: what it started with, plus what it bought, minus what it sold, money net of the maker fees
    const signed = (d: Deal, x: Decimal) => (d.side === 'buy' ? x : x.neg());
    const after = paper();
    expect(fmt(after['BTC']!.available.add(after['BTC']!.freeze))).toBe(fmt(before.paper['BTC']!.available.add(sum(mine.map((d) => signed(d, d.amount))))));
    expect(fmt(after['USDT']!.available.add(after['USDT']!.freeze))).toBe(
      fmt(before.paper['USDT']!.available.sub(sum(mine.map((d) => signed(d, d.deal)))).sub(sum(mine.map((d) => d.fee)))),
    );
    // every fee paid, maker and taker, is in the pool
    expect(fmt(ex.feesCollected('USDT'))).toBe(fmt(sum([...mine, ...ex.deals(FLOW)].map((d) => d.fee))));
    for (const d of ex.deals(FLOW)) expect(d.role).toBe('taker');
  });
});

describe('paper venue fill model over loopback HTTP', () => {
  it('a model fill reads as a matching fill to the client: the order’s fields, its deals and history, and the daemon’s deal check', async () => {
    const clock = { now: T0 };
    const feed = new HandFeed();
    const flow = createLiveFlow({ feed, markets: [M], staleAfterMs: 3000 });
    // the flow is stepped by hand below, not on the sim's timer
    const sim = await startSim({
      config: paperSimConfig({ markets: [market], balances: { BTC: D('10'), USDT: D('100000') }, account: 'paper' }),
      marketFlow: flow,
      flow: false,
    });
    const account = sim.accounts[0]!;
    const client = new RestClient({ baseUrl: sim.baseUrl, apiKey: account.apiKey, apiSecret: account.apiSecret });
    try {
      const stepAt = (b: OrderBook | undefined, trades: PublicTrade[] = []) => {
        clock.now += 250;
        feed.book = b;
        feed.trades = trades;
        flow.step(sim.exchange, clock.now);
      };
      stepAt(B0);
      const asked = { market: M, side: 'buy' as const, amount: D('0.5'), price: D('100'), clientOrderId: 'paper-fill-1' };
      const placed = await client.placeLimit(asked);
      // the upstream's trades after the order (the sim's clock is the wall clock here)
      const later = Date.now() + 1000 - T0;
      stepAt(B0, [trade(later, '99', '0.3', 'sell')]);
      const deals = await client.deals({ market: M });
      expect(deals.map((d) => [d.side, d.role, fmt(d.price), fmt(d.amount), fmt(d.fee), d.orderId, d.clientOrderId])).toEqual([
        ['buy', 'maker', '100', '0.3', '0.03', placed.orderId, 'paper-fill-1'],
      ]);
      const [open] = await client.openOrders({ market: M });
      expect([fmt(open!.left), fmt(open!.dealStock), fmt(open!.dealMoney), fmt(open!.dealFee), open!.status]).toEqual([
        '0.2',
        '0.3',
        '30',
        '0.03',
        'PARTIALLY_FILLED',
      ]);
      for (const d of deals) expect(dealAgainstOrder({ ...asked, kind: 'limit', orderId: placed.orderId }, d)).toEqual([]);
      stepAt(B0, [trade(later + 10, '99.9', '1', 'sell')]);
      const history = await client.orderHistory({ market: M });
      expect(history.map((h) => [h.orderId, h.status, fmt(h.dealStock), fmt(h.dealMoney), fmt(h.dealFee)])).toEqual([
        [placed.orderId, 'FILLED', '0.5', '50', '0.05'],
      ]);
      const balances = await client.tradeBalance();
      expect([fmt(balances['BTC']!.available), fmt(balances['USDT']!.available), fmt(balances['USDT']!.freeze)]).toEqual(['10.5', '99949.95', '0']);
    } finally {
      client.close();
      await sim.close();
    }
  });
});
