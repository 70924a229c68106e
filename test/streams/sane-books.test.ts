import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { OrderBook } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { saneBooks, type HeldBook, type HoldEnded, type SaneBooksOptions } from '../../src/streams/sane-books.js';
import { bookFixture } from '../../src/strategy/testing.js';

const newScheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

/** A book around `mid` with a spread of 2 (bid mid−1, ask mid+1), three levels a side. */
const at = (mid: number, timestamp = 0): OrderBook => bookFixture({ bid: mid - 1, ask: mid + 1, depth: 3, timestamp });

/** Runs the operator over `books` and gathers what passed and what was held. */
async function run(books: OrderBook[], options: Omit<SaneBooksOptions, 'onHeld' | 'onResumed'> = {}) {
  const held: HeldBook[] = [];
  const resumed: HoldEnded[] = [];
  const passed = await lastValueFrom(from(books).pipe(saneBooks({ ...options, onHeld: (h) => held.push(h), onResumed: (r) => resumed.push(r) }), toArray()));
  return { passed, held, resumed };
}

describe('saneBooks', () => {
  it("a one-sided book never becomes the reference: a thin market's lone bid far below does not hold the first real book", async () => {
    const lone: OrderBook = { market: 'BTC_USDT', timestamp: 1, bids: [{ price: D('20000'), amount: D('0.001') }], asks: [] };
    const { passed, held } = await run([lone, at(30_000), at(30_010)]);
    expect(passed).toEqual([lone, at(30_000), at(30_010)]);
    expect(held).toEqual([]);
  });

  it('with trade evidence, a jump the polls agree on passes only once the trades explain it (a long lie never does)', async () => {
    const jumped = [at(30_000), at(300_000), at(300_000), at(300_000), at(300_000), at(300_000)];
    let tradedAt = 30_000;
    const explained = (mid: ReturnType<typeof D>): boolean => mid.minus(tradedAt).abs().lte(mid.times('0.1'));
    // the market trades at the old price all along: every poll of the jump is held, however many agree
    const lie = await run(jumped, { explained });
    expect(lie.passed).toEqual([at(30_000)]);
    expect(lie.held.map((h) => h.reason)).toEqual(['jump', 'jump', 'jump', 'jump', 'jump']);
    // it trades at the new level from the fourth poll on: confirmed there
    let polls = 0;
    const moved = await run(jumped, {
      explained: (mid) => {
        polls += 1;
        if (polls >= 2) tradedAt = 300_000;
        return explained(mid);
      },
    });
    expect(moved.passed).toEqual([at(30_000), at(300_000), at(300_000)]);
    expect(moved.resumed.map((r) => r.outcome)).toEqual(['confirmed']);
  });

  it('passes sane books on unchanged (the venue objects themselves), marble timing kept', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const values = { a: at(30_000), b: at(30_100), c: at(29_950) };
      expectObservable(cold('a 99ms b 99ms c|', values).pipe(saneBooks())).toBe('a 99ms b 99ms c|', values);
    });
  });

  it('holds a crossed book and never accepts it, however long it lasts (the 0.01 ask under a 30,000 bid)', async () => {
    const crossed: OrderBook = { market: 'BTC_USDT', timestamp: 1, bids: [{ price: D('30000'), amount: D(1) }], asks: [{ price: D('0.01'), amount: D(1) }] };
    const { passed, held, resumed } = await run([at(30_000), crossed, crossed, crossed, crossed, at(30_010)]);
    expect(passed).toEqual([at(30_000), at(30_010)]);
    expect(held.map((h) => [h.reason, h.heldPolls])).toEqual([
      ['crossed', 1],
      ['crossed', 2],
      ['crossed', 3],
      ['crossed', 4],
    ]);
    expect(held[0]!.message).toBe('best bid 30000 >= best ask 0.01');
    expect(resumed).toEqual([{ book: at(30_010), heldPolls: 4, outcome: 'back' }]);
    // bid = ask is crossed too (locked): nothing trades there that a mid could be read from
    expect((await run([bookFixture({ bid: 100, ask: 100 })])).held.map((h) => h.reason)).toEqual(['crossed']);
  });

  it('holds a non-positive price or amount at the touch, or a non-positive price at any level, the very first book included', async () => {
    const book = at(30_000);
    const zeroAmount: OrderBook = { ...book, asks: [{ price: book.asks[0]!.price, amount: D(0) }, ...book.asks.slice(1)] };
    const negativeBid: OrderBook = { ...book, bids: [...book.bids.slice(0, 2), { price: D(-1), amount: D(1) }] };
    const zeroBid: OrderBook = { ...book, bids: [{ price: D(0), amount: D(1) }] };
    const nan: OrderBook = { ...book, bids: [{ price: D(NaN), amount: D(1) }] };
    const { passed, held } = await run([zeroAmount, at(30_000), negativeBid, zeroBid, nan]);
    expect(passed).toEqual([at(30_000)]);
    expect(held.map((h) => [h.reason, h.heldPolls])).toEqual([
      ['non-positive', 1],
      ['non-positive', 1],
      ['non-positive', 2],
      ['non-positive', 3],
    ]);
    expect(held[0]!.message).toBe('level 30001 x 0 is not positive');
    expect(held[1]!.message).toBe('level -1 x 1 is not positive');
    // a side is ordered from the best: its prices are all positive when the lowest is (the last bid, the best ask)
    const negativeAsk: OrderBook = { ...book, asks: [{ price: D(-5), amount: D(1) }, ...book.asks] };
    expect((await run([negativeAsk])).held.map((h) => h.reason)).toEqual(['non-positive']);
    // deeper amounts are not read (see nonPositiveLevel: their cost in the backtest; nothing reads them)
    const deepZero: OrderBook = { ...book, bids: [book.bids[0]!, { price: book.bids[1]!.price, amount: D(0) }, book.bids[2]!] };
    expect((await run([deepZero])).passed).toEqual([deepZero]);
  });

  it('holds a 10x jump, then passes it once the next two polls agree with it (a real move, late by two polls)', async () => {
    const { passed, held, resumed } = await run([at(30_000), at(300_000), at(301_000), at(299_000), at(300_500)]);
    expect(passed).toEqual([at(30_000), at(299_000), at(300_500)]);
    expect(held.map((h) => [h.reason, h.heldPolls])).toEqual([
      ['jump', 1],
      ['jump', 2],
    ]);
    expect(held[0]!.message).toBe('mid 300000 is 900 % from the last sane mid 30000, unconfirmed');
    expect(resumed).toEqual([{ book: at(299_000), heldPolls: 2, outcome: 'confirmed' }]);
  });

  it('never passes a spike of one poll (nor of confirmPolls polls); the books after it pass at once', async () => {
    const { passed, held, resumed } = await run([at(30_000), at(300_000), at(30_020), at(300_000), at(300_000), at(30_050)]);
    expect(passed).toEqual([at(30_000), at(30_020), at(30_050)]);
    expect(held).toHaveLength(3);
    expect(resumed.map((r) => [r.heldPolls, r.outcome])).toEqual([
      [1, 'back'],
      [2, 'back'],
    ]);
  });

  it('a move within maxJump passes at once; maxJump and confirmPolls are settings (0 polls: no jump hold)', async () => {
    expect((await run([at(30_000), at(32_999)])).held).toEqual([]); // 9.997 %
    expect((await run([at(30_000), at(33_001)])).held.map((h) => h.reason)).toEqual(['jump']); // 10.003 %
    expect((await run([at(30_000), at(36_000)], { maxJump: D('0.25') })).held).toEqual([]);
    expect((await run([at(30_000), at(300_000)], { confirmPolls: 0 })).passed).toEqual([at(30_000), at(300_000)]);
    const one = await run([at(30_000), at(300_000), at(300_000)], { confirmPolls: 1 });
    expect(one.passed).toEqual([at(30_000), at(300_000)]);
    expect(() => saneBooks({ maxJump: D(0) })).toThrow(/maxJump/);
    expect(() => saneBooks({ confirmPolls: 1.5 })).toThrow(/confirmPolls/);
  });

  it('a confirmation must be unbroken: disagreeing or crossed polls in between start it again', async () => {
    const crossed = bookFixture({ bid: 300_001, ask: 299_999 });
    // 300k, 600k (disagrees: a new candidate), 600k, 600k (confirmed); then 60k, crossed, 60k, 60k (a new candidate after the crossed one)
    const { passed, held } = await run([
      at(30_000),
      at(300_000),
      at(600_000),
      at(600_000),
      at(600_000),
      at(60_000),
      crossed,
      at(60_000),
      at(60_000),
      at(60_000),
    ]);
    expect(passed).toEqual([at(30_000), at(600_000), at(60_000)]);
    expect(held.map((h) => h.reason)).toEqual(['jump', 'jump', 'jump', 'jump', 'crossed', 'jump', 'jump']);
  });

  it('an empty side is legal (thin market): it passes, its touch stands for the mid in the jump check', async () => {
    const bidsOnly = bookFixture({ bid: 29_990 });
    const asksOnly = bookFixture({ ask: 3 });
    const empty = bookFixture({});
    const { passed, held } = await run([at(30_000), bidsOnly, empty, asksOnly, at(30_010)]);
    expect(passed).toEqual([at(30_000), bidsOnly, empty, at(30_010)]);
    expect(held.map((h) => h.reason)).toEqual(['jump']);
  });

  it('without trade evidence, the first book is accepted when positive and not crossed: it has nothing to be compared with', async () => {
    expect((await run([at(300_000), at(30_000), at(30_000), at(30_000)])).passed).toEqual([at(300_000), at(30_000)]);
  });

  it("with trade evidence, a first book (and a one-sided one before any reference) waits until the market's trades vouch for it: a lie of the first poll is never the reference", async () => {
    // the market trades at 30,000; the evidence is known from the second poll on (the first asked for it)
    let polls = 0;
    const firstVouched = (mid: ReturnType<typeof D>): boolean => ++polls > 1 && mid.minus(30_000).abs().lte(mid.times('0.1'));
    const asksOnly: OrderBook = { market: 'BTC_USDT', timestamp: 0, bids: [], asks: [{ price: D('3e29'), amount: D('1') }] };
    const { passed, held, resumed } = await run([at(3_000_000), at(3_000_000), asksOnly, at(30_000), at(300_000), at(30_010)], { firstVouched });
    expect(passed).toEqual([at(30_000), at(30_010)]);
    expect(held.map((h) => [h.reason, h.heldPolls])).toEqual([
      ['first', 1],
      ['first', 2],
      ['first', 3],
      ['jump', 1],
    ]);
    expect(resumed.map((r) => r.outcome)).toEqual(['confirmed', 'back']);
    // once there is a reference, the evidence is asked only for jumps
    expect(polls).toBe(4);
  });

  it('state is per subscription (share the result for one check per market)', async () => {
    const op = saneBooks();
    const books = from([at(30_000), at(300_000)]);
    expect(await lastValueFrom(books.pipe(op, toArray()))).toEqual([at(30_000)]);
    expect(await lastValueFrom(from([at(300_000)]).pipe(op, toArray()))).toEqual([at(300_000)]);
  });

  it('forwards errors and completion', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('a #', { a: at(1000) }).pipe(saneBooks())).toBe('a #', { a: at(1000) });
    });
  });

  it('property (seeded): a lie of up to confirmPolls polls between sane books never passes, whatever its prices', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1_000, max: 100_000 }),
        fc.array(fc.oneof(fc.double({ min: 0.001, max: 0.85, noNaN: true }), fc.double({ min: 1.12, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 2 }),
        async (mid, factors) => {
          const lies = factors.map((f) => at(Math.round(mid * f * 100) / 100 + 2));
          const { passed, held } = await run([at(mid), ...lies, at(mid)]);
          expect(passed).toEqual([at(mid), at(mid)]);
          expect(held).toHaveLength(lies.length);
        },
      ),
      { seed: 23, numRuns: 200 },
    );
  });
});
