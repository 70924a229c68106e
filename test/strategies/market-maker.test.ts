import fc from 'fast-check';
import { tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { Balances } from '../../src/model/balance.js';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import type { Intent } from '../../src/strategy/intents.js';
import { bookFixture, createPaperOrders, createTestContext, marketFixture, type PaperOrders } from '../../src/strategy/testing.js';
import marketMaker, { desiredQuotes, type MarketMakerParams } from '../../strategies/market-maker/index.js';
import { Decimal } from '../../src/model/decimal.js';

const show = (i: Intent): string => {
  switch (i.kind) {
    case 'place-limit':
      return `${i.side} ${i.price.toFixed()} ${i.amount.toFixed()} ${i.tag ?? ''}${i.postOnly ? ' post' : ''}`;
    case 'cancel':
      return `cancel ${i.clientOrderId}`;
    default:
      return i.kind;
  }
};

const book = (bid: string, ask: string) => bookFixture({ bid, ask });
const deal = (side: 'buy' | 'sell', amount: string): Deal => ({
  id: 1,
  time: 0,
  market: 'BTC_USDT',
  side,
  role: 'maker',
  amount: D(amount),
  price: D(100),
  deal: D(0),
  fee: D(0),
  orderId: 1,
  clientOrderId: 'x',
});

interface Run {
  books: string;
  bookValues: Record<string, ReturnType<typeof book>>;
  params?: Record<string, unknown>;
  fills?: { marbles: string; values: Record<string, Deal> };
  balances?: { marbles: string; values: Record<string, Balances> };
  /** Called with the paper orders after every frame is set up (e.g. to fill at a time). */
  during?: (paper: PaperOrders, scheduler: TestScheduler) => void;
}

/** Runs the market maker on virtual time against paper orders; returns `[ms, intent]` pairs. */
function run(spec: Run): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
  scheduler.run(({ cold, hot, flush }) => {
    const paper = createPaperOrders({ now: () => scheduler.now() });
    const params: MarketMakerParams = marketMaker.params.parse(spec.params ?? {});
    const ctx = createTestContext({
      scheduler,
      market: marketFixture(),
      params,
      book$: cold(spec.books, spec.bookValues),
      orders$: paper.orders$,
      ...(spec.fills ? { fills$: hot(spec.fills.marbles, spec.fills.values) } : {}),
      ...(spec.balances ? { balances$: hot(spec.balances.marbles, spec.balances.values) } : {}),
    });
    spec.during?.(paper, scheduler);
    marketMaker
      .create(ctx)
      .pipe(tap((i) => paper.apply(i)))
      .subscribe((i) => out.push([scheduler.now(), show(i)]));
    flush();
  });
  return out;
}

describe('market maker', () => {
  it('places post-only quotes around the mid, one per level per side', () => {
    const out = run({ books: 'a', bookValues: { a: book('100', '102') }, params: { levels: 2, size: '0.002' } });
    expect(out).toEqual([
      [0, 'buy 100.899 0.002 bid-0 post'],
      [0, 'sell 101.101 0.002 ask-0 post'],
      [0, 'buy 100.798 0.002 bid-1 post'],
      [0, 'sell 101.202 0.002 ask-1 post'],
    ]);
  });

  it('keeps its quotes while the mid moves less than the refresh threshold, re-quotes beyond it', () => {
    const out = run({
      books: 'a 9ms b 9ms c 9ms c',
      // b: mid 101.02, 0.02 % away (threshold 0.05 %); c: mid 102, about 1 % away.
      bookValues: { a: book('100', '102'), b: book('100.02', '102.02'), c: book('101', '103') },
    });
    expect(out).toEqual([
      [0, 'buy 100.899 0.001 bid-0 post'],
      [0, 'sell 101.101 0.001 ask-0 post'],
      [20, 'cancel paper-1'],
      [20, 'cancel paper-2'],
      [20, 'buy 101.898 0.001 bid-0 post'],
      [20, 'sell 102.102 0.001 ask-0 post'],
    ]);
  });

  it('replaces a filled quote at the next book, leaving the other one resting', () => {
    const out = run({
      books: 'a 9ms a',
      bookValues: { a: book('100', '102') },
      during: (paper, scheduler) => scheduler.schedule(() => paper.fill('paper-1'), 5),
    });
    expect(out).toEqual([
      [0, 'buy 100.899 0.001 bid-0 post'],
      [0, 'sell 101.101 0.001 ask-0 post'],
      [10, 'buy 100.899 0.001 bid-0 post'],
    ]);
  });

  it('skews both quotes down when long and up when short', () => {
    const long = run({ books: '5ms a', bookValues: { a: book('100', '102') }, fills: { marbles: 'f', values: { f: deal('buy', '0.005') } } });
    // centre = 101 × (1 − 0.001 × 0.5) = 100.9495
    expect(long).toEqual([
      [5, 'buy 100.8485505 0.001 bid-0 post'],
      [5, 'sell 101.0504495 0.001 ask-0 post'],
    ]);
    const short = run({ books: '5ms a', bookValues: { a: book('100', '102') }, fills: { marbles: 'f', values: { f: deal('sell', '0.005') } } });
    expect(short).toEqual([
      [5, 'buy 100.9494495 0.001 bid-0 post'],
      [5, 'sell 101.1515505 0.001 ask-0 post'],
    ]);
  });

  it('stops quoting the side that would grow the position at max inventory', () => {
    const out = run({
      books: '5ms a',
      bookValues: { a: book('100', '102') },
      fills: { marbles: 'fg', values: { f: deal('buy', '0.006'), g: deal('buy', '0.004') } },
    });
    expect(out.map(([, s]) => s.split(' ')[0])).toEqual(['sell']);
  });

  it('never asks to cross the book when post-only, even with a strong skew', () => {
    const out = run({
      books: '5ms a',
      bookValues: { a: book('100', '102') },
      params: { inventorySkew: '0.05' },
      fills: { marbles: 'f', values: { f: deal('sell', '0.01') } },
    });
    // Short at max: the ask (it would grow the short) is not quoted; the bid, at 106.05 × 0.999 far above the best
    // ask, is pulled back one price step behind it.
    expect(out).toEqual([[5, 'buy 101.99 0.001 bid-0 post']]);
  });

  it('can take inventory from balances, relative to the first balance seen', () => {
    const bal = (btc: string): Balances => ({ BTC: { available: D(btc), freeze: D(0) }, USDT: { available: D(1000), freeze: D(0) } });
    const out = run({
      books: '5ms a 9ms a',
      bookValues: { a: book('100', '102') },
      params: { inventoryFrom: 'balances' },
      balances: { marbles: 'x 9ms y', values: { x: bal('1'), y: bal('1.01') } },
    });
    expect(out).toEqual([
      [5, 'buy 100.899 0.001 bid-0 post'],
      [5, 'sell 101.101 0.001 ask-0 post'],
      // Long 0.01 = maxInventory: the bid goes, the ask is re-priced with full skew (100.899 × 1.001 − …).
      [15, 'cancel paper-1'],
      [15, 'cancel paper-2'],
      [15, 'sell 100.999899 0.001 ask-0 post'],
    ]);
  });

  it('rejects nonsense params', () => {
    expect(marketMaker.params.safeParse({ spread: '-0.1' }).success).toBe(false);
    expect(marketMaker.params.safeParse({ levels: 0 }).success).toBe(false);
    expect(marketMaker.params.safeParse({ size: 'abc' }).success).toBe(false);
  });

  it('property: the quotes are (mid × centre factor) × level factor exactly, whichever grouping the multiplication takes', () => {
    // mids of every length (some too long for the single multiplication), inventories that divide evenly and not
    const digits = fc.bigInt({ min: 1n, max: 10n ** 45n });
    const mid = fc.tuple(digits, fc.integer({ min: -40, max: 5 })).map(([m, e]) => new Decimal(`${m}e${e}`));
    const inventory = fc.tuple(fc.integer({ min: -300, max: 300 }), fc.constantFrom('0.001', '0.0001', '0.00003')).map(([k, unit]) => D(unit).times(k));
    const params = fc.record({
      spread: fc.constantFrom('0.0004', '0.002', '0.0123456789'),
      levels: fc.integer({ min: 1, max: 3 }),
      levelSpacing: fc.constantFrom('0.001', '0.00037'),
      inventorySkew: fc.constantFrom('0.001', '0', '0.0333'),
      maxInventory: fc.constantFrom('0.1', '0.07', '0.3'),
    });
    fc.assert(
      fc.property(params, mid, fc.array(inventory, { minLength: 1, maxLength: 4 }), (raw, m, inventories) => {
        const p = marketMaker.params.parse({ ...raw, postOnly: false });
        for (const inv of inventories) {
          const ratio = Decimal.max(-1, Decimal.min(1, inv.div(p.maxInventory)));
          const centre = m.times(D(1).minus(p.inventorySkew.times(ratio)));
          const want: string[] = [];
          for (let i = 0; i < p.levels; i++) {
            const offset = p.spread.div(2).plus(p.levelSpacing.times(i));
            if (inv.lt(p.maxInventory)) want.push(`buy ${centre.times(D(1).minus(offset)).toFixed()}`);
            if (inv.gt(p.maxInventory.neg())) want.push(`sell ${centre.times(D(1).plus(offset)).toFixed()}`);
          }
          const got = desiredQuotes(p, { mid: m }, inv, D('0.01')).map((q) => `${q.side} ${q.price.toFixed()}`);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
