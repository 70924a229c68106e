import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualExchange } from '../../backtest/replay/virtual-exchange.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import type { FillModelParams } from '../../src/fill-model/fill-model-params.js';
import type { OrderBook } from '../../src/model/book.js';
import { D, fmt, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Side } from '../../src/model/order.js';
import { snapshotOfBook } from '../../src/recording/book-snapshot.js';
import { priceToTicks } from '../../src/recording/recording-format.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { createLiveFlow } from '../../src/sim/live-flow.js';
import { paperSimConfig } from '../../src/sim/paper-sim-config.js';
import { HandFeed, btcUsdt } from '../helpers/live-feed.js';

/**
 * The paper venue (the live flow over the sim: the mirror's crossing, then the fill model) against the backtest's
 * virtual exchange, one resting order of ours, the same upstream books and trades, both assumptions.
 *
 * The relation, exactly: the two fill the same, under either assumption. Pessimistic, that needs the mirror to count a
 * resting seller at or through a buy's price once, as the model does (X1 - X0): it does not place again what the
 * buy ate while the upstream still shows it (mirror-eaten.ts). (Fills are whole lots on both sides: the books' and
 * trades' amounts are on the lot grid, as an upstream's are.) Across a stale spell too: the paper venue steps from the
 * last book before it to the first after it, with the trades in between, as the backtest across a gap in the
 * recording (live-flow.ts).
 */
const M = 'BTC_USDT';
const market = btcUsdt({ stockPrec: 2, minAmount: D('0.01'), minTotal: D('0.01') });
const T0 = 1_700_000_000_000;
const STEP_MS = 250;
/** Prices are whole numbers 95..105; the order rests at one of 98..102. */
const LOW = 95;
const HIGH = 105;

interface GenBook {
  /** Bids at prices < split, asks at prices >= split: never crossed. */
  readonly split: number;
  /** Per price LOW..HIGH, the lots shown there (0: no level). */
  readonly lots: readonly number[];
}
interface GenTrade {
  readonly price: number;
  readonly lots: number;
  readonly takerSide: Side;
}
interface Case {
  readonly side: Side;
  readonly price: number;
  readonly orderLots: number;
  readonly steps: ReadonlyArray<{ readonly book: GenBook; readonly trades: readonly GenTrade[] }>;
}

const lotsOf = (n: number): Decimal => D(n).div(100);

function toBook(b: GenBook): OrderBook {
  const bids = [];
  const asks = [];
  for (let p = HIGH; p >= LOW; p--) if (p < b.split && b.lots[p - LOW]! > 0) bids.push({ price: D(p), amount: lotsOf(b.lots[p - LOW]!) });
  for (let p = LOW; p <= HIGH; p++) if (p >= b.split && b.lots[p - LOW]! > 0) asks.push({ price: D(p), amount: lotsOf(b.lots[p - LOW]!) });
  return { market: M, timestamp: 0, bids, asks };
}

/** Opposite-side quantity at or through the order's price. */
function through(book: OrderBook, side: Side, price: number): Decimal {
  const levels = side === 'buy' ? book.asks.filter((l) => l.price.lte(price)) : book.bids.filter((l) => l.price.gte(price));
  return levels.reduce((s, l) => s.add(l.amount), ZERO);
}

const genBook = fc.record({
  split: fc.integer({ min: LOW + 1, max: HIGH }),
  lots: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })), { minLength: HIGH - LOW + 1, maxLength: HIGH - LOW + 1 }),
});
const genTrade = fc.record({
  price: fc.integer({ min: LOW, max: HIGH }),
  lots: fc.integer({ min: 1, max: 250 }),
  takerSide: fc.constantFrom<Side>('buy', 'sell'),
});
const genCase = fc
  .record({
    side: fc.constantFrom<Side>('buy', 'sell'),
    price: fc.integer({ min: 98, max: 102 }),
    orderLots: fc.integer({ min: 1, max: 400 }),
    first: genBook,
    steps: fc.array(fc.record({ book: genBook, trades: fc.array(genTrade, { maxLength: 3 }) }), { minLength: 1, maxLength: 8 }),
  })
  // the order rests on arrival (it does not cross the first book): the arrival's taker fills are not what is compared
  .filter((c) => through(toBook(c.first), c.side, c.price).isZero())
  .map((c): Case => ({ side: c.side, price: c.price, orderLots: c.orderLots, steps: [{ book: c.first, trades: [] }, ...c.steps] }));

/**
 * Cases aimed at issue #25: a large order (rarely filled up) and, after a first book it does not cross, books whose
 * other side mostly reaches it, so that sellers (buyers) at or through it stay, grow, shrink and move between the
 * levels through it over several books in a row, and fill it in parts.
 */
const genThroughCase = fc
  .record({
    side: fc.constantFrom<Side>('buy', 'sell'),
    price: fc.integer({ min: 98, max: 102 }),
    orderLots: fc.integer({ min: 200, max: 3000 }),
    first: genBook,
    steps: fc.array(
      fc.record({
        // bids below the split, asks from it up: a buy is crossed by a split at or below its price, a sell above it
        offset: fc.integer({ min: -3, max: 1 }),
        lots: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 120 })), { minLength: HIGH - LOW + 1, maxLength: HIGH - LOW + 1 }),
        trades: fc.array(genTrade, { maxLength: 2 }),
      }),
      { minLength: 2, maxLength: 8 },
    ),
  })
  .filter((c) => through(toBook(c.first), c.side, c.price).isZero())
  .map(
    (c): Case => ({
      side: c.side,
      price: c.price,
      orderLots: c.orderLots,
      steps: [
        { book: c.first, trades: [] },
        ...c.steps.map((s) => ({
          book: { split: Math.min(HIGH, Math.max(LOW + 1, c.side === 'buy' ? c.price + s.offset : c.price + 1 - s.offset)), lots: s.lots },
          trades: s.trades,
        })),
      ],
    }),
  );

/** One poll of the upstream: a book (or none: the upstream answered nothing) and the trades taken with it. */
interface Poll {
  readonly t: number;
  /** The index of the case's step whose book this is; undefined for a poll without a book. */
  readonly step: number | undefined;
  readonly trades: ReadonlyArray<{ readonly t: number; readonly trade: GenTrade }>;
}

/**
 * The case's steps as polls STEP_MS apart. `gaps[k]` (k >= 1): polls without a book before step k's book, the
 * step's trades spread over them (trade j at the j-th poll, the rest with the book): a gap in the recording, and on
 * the paper venue a stale spell once it lasts staleAfterMs.
 */
function pollsOf(c: Case, gaps: readonly number[] = []): Poll[] {
  const polls: Poll[] = [];
  let t = T0;
  c.steps.forEach((s, k) => {
    const g = k === 0 ? 0 : (gaps[k] ?? 0);
    for (let i = 0; i <= g; i++) {
      const at = t;
      const trades = s.trades.flatMap((trade, j) => (Math.min(j, g) === i ? [{ t: at - STEP_MS / 2 + j, trade }] : []));
      polls.push({ t: at, step: i === g ? k : undefined, trades });
      t += STEP_MS;
    }
  });
  return polls;
}

interface Run {
  readonly assumption: FillAssumption;
  readonly fillModel?: FillModelParams | undefined;
  /** Book-less polls before each step's book (pollsOf). */
  readonly gaps?: readonly number[] | undefined;
  /** The paper venue's staleAfterMs. Default 60 s: never stale. */
  readonly staleAfterMs?: number | undefined;
}

/** Base amount the paper venue fills the order with. */
function paperFills(c: Case, run: Run): { filled: Decimal; conserved: boolean; spells: number; filledOnResume: Decimal } {
  const clock = { now: T0 };
  const ex = new SimExchange(paperSimConfig({ markets: [market], balances: { BTC: D('100'), USDT: D('100000') }, account: 'paper' }), () => clock.now);
  const totals = () => ['BTC', 'USDT'].map((a) => fmt(ex.totals(a))).join();
  const initial = totals();
  const feed = new HandFeed();
  const flow = createLiveFlow({ feed, markets: [M], staleAfterMs: run.staleAfterMs ?? 60_000, fills: run.assumption, fillModel: run.fillModel });
  let id = 0;
  let orderId = 0;
  const filledNow = () =>
    ex
      .deals('paper', { limit: 1000 })
      .filter((d) => d.orderId === orderId)
      .reduce((s, d) => s.add(d.amount), ZERO);
  let spells = 0;
  let filledOnResume = ZERO;
  for (const poll of pollsOf(c, run.gaps)) {
    clock.now = poll.t;
    feed.book = poll.step === undefined ? undefined : toBook(c.steps[poll.step]!.book);
    feed.trades = poll.trades.map(({ t: time, trade: t }) => ({
      market: M,
      id: ++id,
      time,
      price: D(t.price),
      amount: lotsOf(t.lots),
      takerSide: t.takerSide,
      value: D(t.price).mul(lotsOf(t.lots)),
    }));
    // the market starts stale: its first book is no resumption
    const resuming = poll.step !== undefined && poll.step > 0 && flow.isStale(M);
    const before = resuming ? filledNow() : ZERO;
    flow.step(ex, clock.now);
    if (resuming) {
      spells += 1;
      filledOnResume = filledOnResume.add(filledNow().sub(before));
    }
    if (poll.step === 0) {
      clock.now += 1;
      const r = ex.placeLimit('paper', { market: M, side: c.side, amount: lotsOf(c.orderLots), price: D(c.price) });
      if (!r.ok) throw new Error(r.message);
      orderId = r.order.orderId;
    }
  }
  return { filled: filledNow(), conserved: totals() === initial, spells, filledOnResume };
}

/** Base amount the backtest's virtual exchange fills the order with, on the same books and trades. */
function backtestFills(c: Case, run: Run): Decimal {
  const clock = { now: T0 };
  const ve = new VirtualExchange({
    market,
    assumption: run.assumption,
    balances: { BTC: D('100'), USDT: D('100000') },
    hasTrades: true,
    now: () => clock.now,
    fillModel: run.fillModel,
  });
  // a poll without a book is a gap in the recording: its trades are recorded, no snapshot
  for (const poll of pollsOf(c, run.gaps)) {
    clock.now = poll.t;
    for (const { t: at, trade: t } of poll.trades) {
      ve.onTrade({ t: at, priceTicks: priceToTicks(String(t.price), 100), amount: lotsOf(t.lots), takerSide: t.takerSide }, D(t.price));
    }
    if (poll.step === undefined) continue;
    ve.onSnapshot(snapshotOfBook(toBook(c.steps[poll.step]!.book), clock.now, market.moneyPrec));
    if (poll.step === 0) {
      clock.now += 1;
      const r = ve.placeLimit({ market: M, side: c.side, amount: lotsOf(c.orderLots), price: D(c.price) });
      if (!r.ok) throw new Error(r.message);
    }
  }
  expect(ve.account.deals().every((d) => d.role === 'maker')).toBe(true);
  return ve.fills.reduce((s, d) => s.add(d.amount), ZERO);
}

/**
 * True when two books in a row show sellers (buyers) at or through the order while the backtest did not fill it up:
 * the case in which the mirror, placing again what the order ate, filled it twice (issue #25).
 */
function reshownAndLeft(c: Case, backtest: Decimal): boolean {
  if (!backtest.lt(lotsOf(c.orderLots))) return false;
  for (let k = 1; k < c.steps.length; k++) {
    const prev = through(toBook(c.steps[k - 1]!.book), c.side, c.price);
    const now = through(toBook(c.steps[k]!.book), c.side, c.price);
    if (prev.gt(0) && now.gt(0)) return true;
  }
  return false;
}

describe('paper venue fills vs the backtest’s virtual exchange (same books and trades, one resting order)', () => {
  it('optimistic: equal, with the default parameters and with the order at the front of its queue', () => {
    let filledRuns = 0;
    fc.assert(
      fc.property(
        genCase,
        fc.constantFrom<FillModelParams | undefined>(undefined, { queueAhead: 0, decreaseTrades: 1 }, { queueAhead: 0.5, decreaseTrades: 1 }),
        (c, params) => {
          const paper = paperFills(c, { assumption: 'optimistic', fillModel: params });
          const backtest = backtestFills(c, { assumption: 'optimistic', fillModel: params });
          expect(fmt(paper.filled)).toBe(fmt(backtest));
          expect(paper.conserved).toBe(true);
          if (backtest.gt(0)) filledRuns += 1;
        },
      ),
      { numRuns: 150 },
    );
    // not a property of empty runs
    expect(filledRuns).toBeGreaterThan(30);
  });

  it('pessimistic: equal', () => {
    let filledRuns = 0;
    fc.assert(
      fc.property(genCase, (c) => {
        const paper = paperFills(c, { assumption: 'pessimistic' });
        const backtest = backtestFills(c, { assumption: 'pessimistic' });
        expect(paper.conserved).toBe(true);
        expect(fmt(paper.filled)).toBe(fmt(backtest));
        if (backtest.gt(0)) filledRuns += 1;
      }),
      { numRuns: 200 },
    );
    expect(filledRuns).toBeGreaterThan(30);
  });

  it('pessimistic: equal on books at or through the order several in a row (the mirror places no seller again that it ate)', () => {
    let reshownRuns = 0;
    fc.assert(
      fc.property(genThroughCase, (c) => {
        const paper = paperFills(c, { assumption: 'pessimistic' });
        const backtest = backtestFills(c, { assumption: 'pessimistic' });
        expect(paper.conserved).toBe(true);
        expect(fmt(paper.filled)).toBe(fmt(backtest));
        if (reshownAndLeft(c, backtest)) reshownRuns += 1;
      }),
      { numRuns: 150 },
    );
    // the case of issue #25 is a good part of the runs (83 of 150 with the suite’s seed): the mirror used to fill these again
    expect(reshownRuns).toBeGreaterThan(50);
  });

  // Polls without a book before a step's book (its trades taken in them): from STALE_POLLS on, a stale spell on the
  // paper venue, a gap in the recording for the backtest. Shorter ones are no spell: equal all the same.
  const STALE_AFTER_MS = 1000;
  const STALE_POLLS = STALE_AFTER_MS / STEP_MS;
  const genGaps = fc.array(fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: 3 * STALE_POLLS }), weight: 2 }), {
    minLength: 9,
    maxLength: 9,
  });

  it.each<[FillAssumption, string, fc.Arbitrary<Case>]>([
    ['pessimistic', 'books at or through the order several in a row', genThroughCase],
    ['pessimistic', 'any books', genCase],
    ['optimistic', 'any books', genCase],
  ])('%s, %s: equal across stale spells (the paper venue steps across one as the backtest across a gap in the recording)', (assumption, _books, gen) => {
    let spellRuns = 0;
    let resumeFillRuns = 0;
    fc.assert(
      fc.property(gen, genGaps, (c, gaps) => {
        const run: Run = { assumption, gaps, staleAfterMs: STALE_AFTER_MS };
        const paper = paperFills(c, run);
        const backtest = backtestFills(c, run);
        expect(paper.conserved).toBe(true);
        expect(fmt(paper.filled)).toBe(fmt(backtest));
        if (paper.spells > 0) spellRuns += 1;
        if (paper.filledOnResume.gt(0)) resumeFillRuns += 1;
      }),
      { numRuns: 150 },
    );
    // not a property of runs without a spell, nor of spells after which nothing fills (with the suite's seed, of 150
    // runs: 136, 126, 126 had a spell, 110, 67, 59 a fill on a fresh book after one, in the order of the table above)
    expect(spellRuns).toBeGreaterThan(100);
    expect(resumeFillRuns).toBeGreaterThan(40);
  });
});
