/**
 * A plain L2 book with absolute quantities (Tardis incremental_book_L2, OKX `books`, Kraken `book`):
 * set a level, zero removes it, a snapshot clears first. Prices are mapped to integer ticks of the
 * market's price step; a price off that grid is refused (a typed error from the caller's parser),
 * because rounding it would merge two levels into one and write a wrong book silently.
 */
import { BotError } from '../../src/model/errors.js';
import { BookSide, type Level } from './book-side.js';

/** A price off the market's price grid; the importers rethrow it as a CaptureFormatError with file:line. */
export class OffTickError extends BotError {
  constructor(message: string) {
    super(message, { code: 'ERR_OFF_TICK' });
  }
}

/** Integer tick of a decimal price string (`scale` = 10^moneyPrec); throws OffTickError when it is not on the grid. */
export function priceTick(price: string, scale: number): number {
  const x = Number(price) * scale;
  const t = Math.round(x);
  // The float product of an on-grid price is within a few ulps of an integer; off-grid is at least 1e-6 tick away
  // for any price a capture prints.
  if (!Number.isFinite(x) || Math.abs(x - t) > Math.max(1e-6, Math.abs(x) * 1e-12)) {
    throw new OffTickError(`price "${price}" is not a multiple of the price step 1e-${Math.round(Math.log10(scale))}`);
  }
  return t;
}

export class LevelBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  readonly #scale: number;

  /** `moneyPrec`: price decimals of the market (tick 10^-moneyPrec). */
  constructor(moneyPrec: number) {
    this.#scale = 10 ** moneyPrec;
  }

  clear(): void {
    this.bids.clear();
    this.asks.clear();
  }

  set(side: 'bid' | 'ask', price: string, quantity: string): void {
    (side === 'bid' ? this.bids : this.asks).set(this.tick(price), price, quantity);
  }

  tick(price: string): number {
    return priceTick(price, this.#scale);
  }

  crossed(): boolean {
    const b = this.bids.ticks[0];
    const a = this.asks.ticks[0];
    return b !== undefined && a !== undefined && b >= a;
  }

  top(n: number): { bids: Level[]; asks: Level[] } {
    return { bids: this.bids.top(n), asks: this.asks.top(n) };
  }
}
