import { describe, expect, it } from 'vitest';
import type { OrderBook } from '../../src/model/book.js';
import { D, fmt } from '../../src/model/decimal.js';
import { BookMirror, bookLevels } from '../../src/sim/book-mirror.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { createLiveFlow, type LiveMarketFeed } from '../../src/sim/live-flow.js';
import { paperSimConfig } from '../../src/sim/paper-sim-config.js';
import { btcUsdt } from '../helpers/live-feed.js';

/**
 * The mirror alone (what `bot sim --replay` runs): a client's resting order fills by the sellers (buyers) the books
 * show at or through it, each once, as the backtest's pessimistic model counts them (max(0, X1 - X0)), and the public
 * book shows the upstream's less what the clients ate (issue #25).
 */
const M = 'BTC_USDT';
const market = btcUsdt({ stockPrec: 6, minAmount: D('0.0001'), minTotal: D('1') });

type Levels = Array<[string, string]>;
const book = (bids: Levels, asks: Levels): OrderBook => ({
  market: M,
  timestamp: 0,
  bids: bids.map(([p, q]) => ({ price: D(p), amount: D(q) })),
  asks: asks.map(([p, q]) => ({ price: D(p), amount: D(q) })),
});

function setup() {
  const clock = { now: 1_700_000_000_000 };
  const ex = new SimExchange(paperSimConfig({ markets: [market], balances: { BTC: D('10'), USDT: D('100000') }, account: 'paper' }), () => clock.now);
  const mirror = new BookMirror('market', M);
  const show = (bids: Levels, asks: Levels): void => {
    clock.now += 1000;
    mirror.apply(ex, bookLevels(book(bids, asks)));
  };
  const place = (side: 'buy' | 'sell', amount: string, price: string) => {
    const r = ex.placeLimit('paper', { market: M, side, amount: D(amount), price: D(price) });
    if (!r.ok) throw new Error(r.message);
    return r.order.orderId;
  };
  /** The base amount the client has been filled with. */
  const filled = (): string => fmt(ex.deals('paper').reduce((s, d) => s.add(d.amount), D(0)));
  const levels = () => {
    const b = ex.book(M);
    return { bids: b.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`), asks: b.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`) };
  };
  return { ex, show, place, filled, levels };
}

describe('book mirror: what the clients ate is not placed again while the upstream still shows it', () => {
  it('a sell level at or through a resting buy that stays in consecutive books fills it once; only its growth fills again', () => {
    const { show, place, filled, levels } = setup();
    show([['99', '1']], [['101', '1']]);
    place('buy', '1', '100');
    show(
      [['99', '1']],
      [
        ['100', '0.3'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.3');
    show(
      [['99', '1']],
      [
        ['100', '0.3'],
        ['101', '1'],
      ],
    );
    show(
      [['99', '1']],
      [
        ['100', '0.3'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.3');
    // the public book: the upstream's less what we ate (our bid has 0.7 left)
    expect(levels()).toEqual({ bids: ['100x0.7', '99x1'], asks: ['101x1'] });
    show(
      [['99', '1']],
      [
        ['100', '0.5'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.5');
  });

  it('levels at several prices through the buy: sellers moving among them are not new, a shrunk level that grows back fills', () => {
    const { show, place, filled } = setup();
    show([['98', '1']], [['101', '1']]);
    place('buy', '1', '100');
    show(
      [['98', '1']],
      [
        ['99', '0.2'],
        ['100', '0.1'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.3');
    // 0.1 moved from 99 to 100: X stays 0.3 (per level, 100 grew by 0.1: that is no new seller)
    show(
      [['98', '1']],
      [
        ['99', '0.1'],
        ['100', '0.2'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.3');
    // X falls to 0.1: those sellers left; then X 0.25 is 0.15 of new sellers
    show(
      [['98', '1']],
      [
        ['99', '0.1'],
        ['101', '1'],
      ],
    );
    show(
      [['98', '1']],
      [
        ['99', '0.1'],
        ['100', '0.15'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.45');
  });

  it('the mirror image: a bid level at or through a resting sell fills it once', () => {
    const { show, place, filled, levels } = setup();
    show([['99', '1']], [['102', '1']]);
    place('sell', '1', '100');
    show(
      [
        ['101', '0.2'],
        ['100', '0.2'],
        ['99', '1'],
      ],
      [['102', '1']],
    );
    show(
      [
        ['101', '0.2'],
        ['100', '0.2'],
        ['99', '1'],
      ],
      [['102', '1']],
    );
    show(
      [
        ['100', '0.4'],
        ['99', '1'],
      ],
      [['102', '1']],
    );
    expect(filled()).toBe('0.4');
    expect(levels()).toEqual({ bids: ['99x1'], asks: ['100x0.6', '102x1'] });
  });

  it('a partial fill of the flow order and a client taking the rest: the level is not shown again until it grows', () => {
    const { show, place, filled, levels } = setup();
    show([['99', '1']], [['101', '1']]);
    place('buy', '0.2', '100');
    show(
      [['99', '1']],
      [
        ['100', '0.5'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.2');
    expect(levels().asks).toEqual(['100x0.3', '101x1']);
    show(
      [['99', '1']],
      [
        ['100', '0.5'],
        ['101', '1'],
      ],
    );
    expect(levels().asks).toEqual(['100x0.3', '101x1']);
    // a taker takes the 0.3 left and 0.1 more rests at 100: the same 0.5 again is no counterparty for it
    place('buy', '0.4', '100');
    expect(filled()).toBe('0.5');
    show(
      [['99', '1']],
      [
        ['100', '0.5'],
        ['101', '1'],
      ],
    );
    expect(filled()).toBe('0.5');
    expect(levels()).toEqual({ bids: ['100x0.1', '99x1'], asks: ['101x1'] });
  });

  it('a level a client took as a taker stays taken while shown, and is shown again once it vanished upstream', () => {
    const { show, place, filled, levels } = setup();
    show(
      [['99', '1']],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    );
    place('buy', '1', '101');
    expect(filled()).toBe('1');
    show(
      [['99', '1']],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    );
    expect(levels().asks).toEqual(['102x3']);
    show(
      [['99', '1']],
      [
        ['101', '0.4'],
        ['102', '3'],
      ],
    );
    show([['99', '1']], [['102', '3']]);
    show(
      [['99', '1']],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    );
    expect(levels().asks).toEqual(['101x1', '102x3']);
  });
});

describe('book mirror: withdrawn for a stale spell, it remembers what the clients ate (a gap in the recording)', () => {
  it('a client’s taker ate part of a level before the spell: the same book after it shows the level less that, as with no spell', () => {
    const { ex, levels } = setup();
    // a mirror of its own: withdraw is not among setup's steps
    const mirror = new BookMirror('market', M);
    const at = (bids: Levels, asks: Levels) => mirror.apply(ex, bookLevels(book(bids, asks)));
    const b: [Levels, Levels] = [
      [['99', '1']],
      [
        ['101', '1'],
        ['102', '3'],
      ],
    ];
    at(...b);
    // a client's taker buy eats 0.4 of the flow's ask at 101
    const r = ex.placeLimit('paper', { market: M, side: 'buy', amount: D('0.4'), price: D('101') });
    if (!r.ok) throw new Error(r.message);
    expect(fmt(r.order.dealStock)).toBe('0.4');
    mirror.withdraw(ex);
    expect(levels()).toEqual({ bids: [], asks: [] });
    at(...b);
    expect(levels().asks).toEqual(['101x0.6', '102x3']);
    // the upstream's sellers at 101 gone and back: new ones, shown in full
    at([['99', '1']], [['102', '3']]);
    at(...b);
    expect(levels().asks).toEqual(['101x1', '102x3']);
  });
});

describe('paper venue (live flow, pessimistic): the re-placement case of issue #25', () => {
  it('an ask at a resting buy’s price in three books in a row fills it once', () => {
    const clock = { now: 1_700_000_000_000 };
    const ex = new SimExchange(paperSimConfig({ markets: [market], balances: { BTC: D('10'), USDT: D('100000') }, account: 'paper' }), () => clock.now);
    let next: OrderBook | undefined;
    const feed: LiveMarketFeed = {
      takeBook: () => {
        const b = next;
        next = undefined;
        return b;
      },
      takeTrades: () => [],
    };
    const flow = createLiveFlow({ feed, markets: [M], staleAfterMs: 60_000 });
    const step = (b: OrderBook): void => {
      clock.now += 250;
      next = b;
      flow.step(ex, clock.now);
    };
    step(book([['99', '1']], [['101', '1']]));
    const r = ex.placeLimit('paper', { market: M, side: 'buy', amount: D('1'), price: D('100') });
    if (!r.ok) throw new Error(r.message);
    for (let k = 0; k < 3; k++)
      step(
        book(
          [['99', '1']],
          [
            ['100', '0.3'],
            ['101', '1'],
          ],
        ),
      );
    expect(ex.deals('paper').map((d) => [d.role, fmt(d.price), fmt(d.amount)])).toEqual([['maker', '100', '0.3']]);
    expect(ex.findOrder('paper', r.order.orderId)?.left.toFixed()).toBe('0.7');
  });
});
