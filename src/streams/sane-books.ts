import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { BookLevel, OrderBook } from '../model/book.js';
import { bestPrice, bestPriceEstimate, levelAt, levelPositive, readerOf, sideCount, type BookSide, type TouchReading } from '../model/book-levels.js';
import { D, fmt, type Decimal } from '../model/decimal.js';
import { gte } from '../model/decimal-compare.js';
import { estimate, plainSign } from '../model/decimal-estimate.js';
import { dmul } from '../model/decimal-small.js';
import { sumOf, sumWithin, touchSum, type PriceSum } from './within-fraction.js';

/**
 * Why a book was held back: a price or amount ≤ 0 (or not a number), best bid ≥ best ask, a jump not yet confirmed, or
 * a first book (nothing sane before it) that the market's trades do not vouch for yet.
 */
export type BookHoldReason = 'non-positive' | 'crossed' | 'jump' | 'first';

/** One poll held back. */
export interface HeldBook {
  readonly book: OrderBook;
  readonly reason: BookHoldReason;
  /** Polls held in a row so far, this one included: 1 starts an episode. */
  readonly heldPolls: number;
  /** What was wrong, in prices (for the log). */
  readonly message: string;
}

/** The end of an episode of held polls: a book passed again. */
export interface HoldEnded {
  readonly book: OrderBook;
  /** Polls held in the episode. */
  readonly heldPolls: number;
  /** `back`: in line with the last sane book again (the held ones were a lie); `confirmed`: a new price level, confirmed by the polls after it. */
  readonly outcome: 'back' | 'confirmed';
}

export interface SaneBooksOptions {
  /** Largest move of the mid from the last sane one that passes at once, as a fraction of it. Default 0.10. */
  readonly maxJump?: Decimal | undefined;
  /** A jump passes when this many polls after it agree with it (within maxJump of it); 0 lets jumps through at once. Default 2. */
  readonly confirmPolls?: number | undefined;
  /**
   * Trade evidence for a jump: true when the market's recent trades were made near `mid` (the jump's new mid). Given,
   * a jump is confirmed only when the polls agree AND the trades explain it - a venue lying about its book for longer
   * than a few polls is still held, while a real move (it trades there) passes. Absent: the polls alone confirm.
   */
  readonly explained?: ((mid: Decimal) => boolean) | undefined;
  /**
   * Trade evidence for a book with no sane book before it (the first, or one-sided ones since): true when the market's
   * trades do not contradict `mid` (its newest trade within `maxJump` of it, or the market has none). Given, such a
   * book is held until they have been seen and vouch for it: a lie in the very first poll is not believed. Absent: the
   * first positive, uncrossed book passes.
   */
  readonly firstVouched?: ((mid: Decimal) => boolean) | undefined;
  /** Told about every held poll (count them; log when `heldPolls` is 1). */
  readonly onHeld?: ((held: HeldBook) => void) | undefined;
  /** Told when a book passes after held ones. */
  readonly onResumed?: ((ended: HoldEnded) => void) | undefined;
}

export const DEFAULT_MAX_JUMP = D('0.1');
export const DEFAULT_CONFIRM_POLLS = 2;

const HALF = D('0.5');

/**
 * Passes only sane order books, so that strategies, marks and every check downstream see no lie of the venue's:
 * - a price or amount ≤ 0 (or not finite) at the best level, a price ≤ 0 at any level (see nonPositiveLevel), and a
 *   crossed book (best bid ≥ best ask), are held, always;
 * - a book whose mid moved more than `maxJump` from the last sane mid is held until the next `confirmPolls` polls
 *   agree with it (each within `maxJump` of it) and, when `explained` is given, the market's trades were made there:
 *   a real move passes after a short delay, a lie of one poll never does, nor a longer one the trades deny.
 *   A book back within `maxJump` of the last sane mid passes at once and ends the wait.
 * A book with one side empty (a thin market) is legal and passes; it has no mid, so its touch stands for one in the
 * jump check, and it never becomes the reference itself. An empty book passes and leaves the reference where it was.
 * The very first book has nothing to be compared with: it passes when it is positive and not crossed and, when
 * `firstVouched` is given, the market's trades vouch for it (held until they do; docs/market-data.md).
 * Nothing is added per value beyond the checks: the book passed on is the venue's own object. The state is per
 * subscription, so share the result (one check per market, whatever the number of consumers).
 */
export function saneBooks(options: SaneBooksOptions = {}): MonoTypeOperatorFunction<OrderBook> {
  const sane = saneBookFilter(options);
  return (source) =>
    new Observable<OrderBook>((subscriber) => {
      const passes = sane();
      return source.subscribe({
        next: (book) => {
          if (passes(book)) subscriber.next(book);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}

/**
 * saneBooks' check as a filter: each call of the result starts the state of one subscription (the last sane mid, the
 * jump waiting for confirmation, the held polls) and returns its test, true for a book that passes (onResumed told
 * before it returns, as saneBooks tells it before passing the book on). For a stage that filters by it without an
 * operator of its own (share-latest.ts: the check inside the shared subject, one subscriber layer fewer per poll).
 * Throws the options' RangeErrors at once, as saneBooks does.
 */
export function saneBookFilter(options: SaneBooksOptions = {}): () => (book: OrderBook) => boolean {
  const maxJump = options.maxJump ?? DEFAULT_MAX_JUMP;
  const confirmPolls = options.confirmPolls ?? DEFAULT_CONFIRM_POLLS;
  if (!(maxJump.isFinite() && maxJump.gt(0))) throw new RangeError(`saneBooks: maxJump must be > 0, got ${maxJump.toString()}`);
  if (!(Number.isInteger(confirmPolls) && confirmPolls >= 0)) throw new RangeError(`saneBooks: confirmPolls must be an integer >= 0, got ${confirmPolls}`);
  const { onHeld, onResumed, explained, firstVouched } = options;
  const maxJumpF = estimate(maxJump);
  const near = (x: PriceSum, ref: PriceSum): boolean => sumWithin(x, ref, maxJump, maxJumpF);
  return () => {
    /** Twice the last sane mid (bid + ask; twice the touch of a one-sided book): what the next book is measured against. */
    let reference: PriceSum | undefined;
    /** A jump waiting for confirmation: its level and how many polls since agreed with it. */
    let candidate: { level: PriceSum; agreed: number } | undefined;
    let heldPolls = 0;

    const hold = (book: OrderBook, reason: BookHoldReason, message: () => string): false => {
      heldPolls += 1;
      if (onHeld) onHeld({ book, reason, heldPolls, message: message() });
      return false;
    };
    const pass = (book: OrderBook, level: PriceSum | undefined, outcome: HoldEnded['outcome']): true => {
      if (level !== undefined) reference = level;
      candidate = undefined;
      if (heldPolls > 0) {
        const held = heldPolls;
        heldPolls = 0;
        onResumed?.({ book, heldPolls: held, outcome });
      }
      return true;
    };

    /** What a reader's `touch` answers, kept for every book (see below). */
    const reading: TouchReading = { bids: 0, asks: 0, bidF: Number.NaN, askF: Number.NaN };

    return (book) => {
      // The touch is read as estimates (a backtest's book answers them from its columns, no Decimal made); the
      // prices themselves only where the estimates cannot settle a test (then exactly, as always). A book with a level
      // reader (a backtest's) gives the six edge answers, the counts and the estimates in one call (model/book-levels.ts:
      // the same answers as the questions below); any other book, or an edge not positive, is asked one question at a
      // time.
      let bidF: number | undefined;
      let askF: number | undefined;
      const reader = readerOf(book);
      if (reader !== undefined && reader.touch(reading)) {
        bidF = reading.bids > 0 ? reading.bidF : undefined;
        askF = reading.asks > 0 ? reading.askF : undefined;
      } else {
        const bad = nonPositiveLevel(book);
        if (bad !== undefined) {
          candidate = undefined;
          return hold(book, 'non-positive', () => `level ${fmt(bad.price)} x ${fmt(bad.amount)} is not positive`);
        }
        bidF = bestPriceEstimate(book, 'bids');
        askF = bestPriceEstimate(book, 'asks');
      }
      if (bidF !== undefined && askF !== undefined && !plainlyBelow(bidF, askF)) {
        const bid = bestPrice(book, 'bids')!;
        const ask = bestPrice(book, 'asks')!;
        if (gte(bid, ask)) {
          candidate = undefined;
          return hold(book, 'crossed', () => `best bid ${fmt(bid)} >= best ask ${fmt(ask)}`);
        }
      }
      // Twice the mid (bid + ask) instead of the mid: the same ratio, kept as its two prices (no sum made per poll).
      const level =
        bidF !== undefined
          ? askF !== undefined
            ? touchSum(book, 'bids', 'asks', bidF, askF)
            : touchSum(book, 'bids', 'bids', bidF, bidF)
          : askF !== undefined
            ? touchSum(book, 'asks', 'asks', askF, askF)
            : undefined;
      // only a two-sided book's mid becomes the reference: a thin market's one side (the first book of a market
      // that has just one resting bid, far below where it will trade) would hold every real book after it
      const mid = bidF !== undefined && askF !== undefined ? level : undefined;
      if (level === undefined) return pass(book, mid, 'back');
      if (reference === undefined) {
        if (firstVouched === undefined || firstVouched(dmul(sumOf(level), HALF))) return pass(book, mid, 'confirmed');
        return hold(
          book,
          'first',
          () => `mid ${fmt(dmul(sumOf(level), HALF))} of a book with no sane book before it, not yet vouched for by the market's trades`,
        );
      }
      if (near(level, reference)) return pass(book, mid, 'back');
      if (candidate !== undefined && near(level, candidate.level)) candidate.agreed += 1;
      else candidate = { level, agreed: 0 };
      if (candidate.agreed >= confirmPolls && (explained === undefined || explained(dmul(sumOf(level), HALF)))) return pass(book, level, 'confirmed');
      const from = reference;
      return hold(book, 'jump', () => {
        const [x, ref] = [sumOf(level), sumOf(from)];
        return `mid ${fmt(dmul(x, HALF))} is ${x.minus(ref).abs().div(ref).times(100).toDecimalPlaces(2).toFixed()} % from the last sane mid ${fmt(dmul(ref, HALF))}, unconfirmed`;
      });
    };
  };
}

/**
 * True when the estimates show bid < ask beyond their error (two terms: the estimates', the subtraction's rounding):
 * the book is then surely not crossed. False when they cannot tell (or one is NaN).
 */
function plainlyBelow(bidF: number, askF: number): boolean {
  return plainSign(askF - bidF, Math.abs(askF) + Math.abs(bidF), 2) === 1;
}

/**
 * A level whose price or amount is not positive, looked for where it can be: the best level (price and amount: what
 * marks, quotes and the post-only check read) and the last level's price. The contract orders a side from the best,
 * so on the bid side the last price is the lowest and on the ask side the best one is: those two are positive only
 * when every price is. Deeper amounts are not read: in the backtest a level's Decimals are made when first read, and
 * reading all of them cost ~10 µs a poll (880 ms CPU a day of 86,400 polls of 20 levels a side, +40 % of the replay);
 * nothing in the engine reads them, and an order priced from a lie there still meets the price band.
 */
function nonPositiveLevel(book: OrderBook): BookLevel | undefined {
  // asked level by level (through the book's level reader where it has one: no level arrays built), which also finds
  // the level to report; a book with a reader comes here only when its touch found an edge not positive
  return nonPositiveOn(book, 'bids') ?? nonPositiveOn(book, 'asks');
}

function nonPositiveOn(book: OrderBook, side: BookSide): BookLevel | undefined {
  const n = sideCount(book, side);
  if (n === 0) return undefined;
  if (!levelPositive(book, side, 0, 'price') || !levelPositive(book, side, 0, 'amount')) return levelAt(book, side, 0);
  return levelPositive(book, side, n - 1, 'price') ? undefined : levelAt(book, side, n - 1);
}
