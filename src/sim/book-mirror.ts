/**
 * The flow account's resting orders kept equal to a book seen elsewhere, one market: a recorded snapshot
 * (recorded-flow.ts, `bot sim --replay`) or an upstream venue's public book polled live (live-flow.ts, the paper
 * venue). Level by level:
 *  - a level that shrank or vanished loses its NEWEST flow orders first (cancelled, or cancelled and a
 *    smaller remainder re-posted at the back), so queue positions ahead of a client are kept;
 *  - a level that grew gets a new flow order for the difference, at the back of the queue;
 *  - cancels happen before placements, so the flow never trades with itself; a level at or through a client's
 *    resting order matches it (the client is the maker) exactly as a real counterparty arriving there would.
 * Clients' orders therefore fill when the mirrored book trades through them, and are not filled by quantity
 * decreases at their level: the X1 − X0 term of the backtest's PESSIMISTIC fill assumption
 * (src/fill-model/fill-model.ts; test/backtest/parity.test.ts shows the two agree on a books-only recording). The
 * paper venue adds the model's other terms on top (paper-fill-model.ts); `bot sim --replay` has the mirror alone.
 */
import { D, Decimal } from '../model/decimal.js';
import type { BookLevel } from '../model/book.js';
import type { Side } from '../model/order.js';
import type { OrderBookResponse } from '../venue/wire.js';
import type { SimExchange } from './exchange.js';

/** A book to mirror: the wanted quantity per price (keyed by `Decimal#toFixed()`), per side. */
export interface MirrorLevels {
  readonly buy: ReadonlyMap<string, Decimal>;
  readonly sell: ReadonlyMap<string, Decimal>;
}

/** The levels of a book record as the wire (and a recording) carries it: decimal strings. */
export function wireLevels(book: OrderBookResponse): MirrorLevels {
  return { buy: new Map(book.bids.map(([p, q]) => [D(p).toFixed(), D(q)])), sell: new Map(book.asks.map(([p, q]) => [D(p).toFixed(), D(q)])) };
}

/** The levels of a domain book (a REST client's answer). */
export function bookLevels(book: { readonly bids: readonly BookLevel[]; readonly asks: readonly BookLevel[] }): MirrorLevels {
  return { buy: new Map(book.bids.map((l) => [l.price.toFixed(), l.amount])), sell: new Map(book.asks.map((l) => [l.price.toFixed(), l.amount])) };
}

interface Resting {
  readonly id: number;
  left: Decimal;
}

export class BookMirror {
  readonly #levels = { buy: new Map<string, Resting[]>(), sell: new Map<string, Resting[]>() };

  constructor(
    /** The (internal, funded) account whose orders make the mirrored book. */
    readonly account: string,
    readonly market: string,
  ) {}

  /** Moves the flow's resting orders to `want`. */
  apply(ex: SimExchange, want: MirrorLevels): void {
    const { account, market } = this;
    const open = new Set(ex.openOrders(account, { market, limit: 1_000_000 }).map((x) => x.orderId));
    const adds: Array<{ side: Side; price: string; amount: Decimal }> = [];
    for (const side of ['buy', 'sell'] as const) {
      const handled = new Set<string>();
      for (const [price, list] of this.#levels[side]) {
        handled.add(price);
        // orders the clients filled are gone; keep the rest with their current left
        const live = list.filter((r) => open.has(r.id));
        let have = live.reduce((a, r) => a.add(r.left), D(0));
        const target = want[side].get(price) ?? D(0);
        while (have.gt(target) && live.length > 0) {
          const r = live.pop()!;
          ex.cancel(account, market, { orderId: r.id });
          have = have.sub(r.left);
        }
        if (live.length === 0) this.#levels[side].delete(price);
        else this.#levels[side].set(price, live);
        if (target.gt(have)) adds.push({ side, price, amount: target.sub(have) });
      }
      for (const [price, amount] of want[side]) if (!handled.has(price) && amount.gt(0)) adds.push({ side, price, amount });
    }
    const stockPrec = ex.markets.get(market)?.stockPrec ?? 8;
    for (const a of adds) {
      // a quantity finer than the sim market's lot (e.g. old resting orders on Binance) is cut to the lot
      const amount = a.amount.toDecimalPlaces(stockPrec, Decimal.ROUND_DOWN);
      if (amount.isZero()) continue;
      const r = ex.placeLimit(account, { market, side: a.side, amount, price: D(a.price), stp: 'cancel_new' });
      if (!r.ok || r.order.left.isZero()) continue;
      const list = this.#levels[a.side].get(a.price) ?? [];
      list.push({ id: r.order.orderId, left: r.order.left });
      this.#levels[a.side].set(a.price, list);
    }
    // refresh `left` of partially filled flow orders (a client took part of them)
    for (const x of ex.openOrders(account, { market, limit: 1_000_000 })) {
      for (const r of this.#levels[x.side].get(x.price.toFixed()) ?? []) if (r.id === x.orderId) r.left = x.left;
    }
  }

  /** Cancels every flow order of the mirror: the book it showed is no longer known, so nothing may fill against it. */
  clear(ex: SimExchange): void {
    for (const side of ['buy', 'sell'] as const) {
      for (const list of this.#levels[side].values()) for (const r of list) ex.cancel(this.account, this.market, { orderId: r.id });
      this.#levels[side].clear();
    }
  }
}
