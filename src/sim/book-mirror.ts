/**
 * The flow account's resting orders kept equal to a book seen elsewhere, one market: a recorded snapshot
 * (recorded-flow.ts, `bot sim --replay`) or an upstream venue's public book polled live (live-flow.ts, the paper
 * venue), LESS what the clients ate of it (mirror-eaten.ts). Level by level, the target is the book's quantity there
 * less the quantity eaten there:
 *  - a level above its target loses its NEWEST flow orders first (cancelled, or cancelled and a smaller remainder
 *    re-posted at the back), so queue positions ahead of a client are kept;
 *  - a level below its target gets a new flow order for the difference, at the back of the queue;
 *  - cancels happen before placements, so the flow never trades with itself; a level at or through a client's
 *    resting order matches it (the client is the maker) exactly as a real counterparty arriving there would.
 * What the clients take of the flow's orders (a placed order crossing theirs, or their takers) is eaten: the book
 * seen elsewhere is the market without them, and still shows those orders, so placing them again would fill the same
 * counterparty twice. The rule (stated in mirror-eaten.ts): eaten := min(eaten, shown) per level, forgotten when the
 * level vanishes, except that the levels at or through the clients' best resting order of the other side are one
 * pool that keeps min(Σ eaten, Σ shown): counterparties moving among the prices at or through an order are not new.
 * So a client's resting order fills when the book trades through it, by min(left, max(0, X1 − X0)) per book (X the
 * quantity at or through its price), and not by quantity decreases at its level: the through term of the backtest's
 * PESSIMISTIC fill assumption (src/fill-model/fill-model.ts; test/backtest/parity.test.ts shows the two agree on a
 * books-only recording, test/backtest/paper-parity.test.ts fill by fill). The paper venue adds the model's other
 * terms on top (paper-fill-model.ts); `bot sim --replay` has the mirror alone.
 *
 * A stale upstream (live-flow.ts) `withdraw`s the flow's orders, so nothing fills against a book no longer known, but
 * the eaten memory is KEPT: the backtest steps across a gap in the recording from the last snapshot before it, X0
 * carried, and so does the mirror. What the clients' takers ate since the last book is noted before the orders go
 * (apply would have noted it at the next book); in the spell the flow has no order, so nothing more is eaten. The
 * next book is then settled against the memory as if no spell had been: the pool at or through a resting buy at P
 * still holds the X0 of the last book before the spell, the mirror places max(0, X1 - X0) there and the buy takes
 * min(left, that): the model's through term from the pre-spell book to the fresh one. (The flow's orders come back at
 * the back of their levels, behind the clients' orders of the same side: no rule of the model sees that order.)
 */
import { D, Decimal } from '../model/decimal.js';
import type { BookLevel } from '../model/book.js';
import type { Side } from '../model/order.js';
import type { OrderBookResponse } from '../venue/wire.js';
import type { SimExchange } from './exchange.js';
import { MirrorEaten } from './mirror-eaten.js';

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
  readonly #eaten = new MirrorEaten();

  constructor(
    /** The (internal, funded) account whose orders make the mirrored book. */
    readonly account: string,
    readonly market: string,
  ) {}

  /** Moves the flow's resting orders to `want`, less what the clients ate of it (mirror-eaten.ts). */
  apply(ex: SimExchange, want: MirrorLevels): void {
    const { account, market } = this;
    this.#noteEaten(ex);
    // the clients' orders are looked at only when a level shows less than was eaten there: most books need none
    let reach: { buy: Decimal | undefined; sell: Decimal | undefined } | undefined;
    const clients = () => (reach ??= clientReach(ex, market, account));
    this.#eaten.settle('buy', want.buy, () => clients().sell);
    this.#eaten.settle('sell', want.sell, () => clients().buy);
    const adds: Array<{ side: Side; price: string; amount: Decimal }> = [];
    for (const side of ['buy', 'sell'] as const) {
      const handled = new Set<string>();
      const targetAt = (price: string, shown: Decimal): Decimal => {
        const t = shown.sub(this.#eaten.at(side, price));
        return t.isNegative() ? D(0) : t;
      };
      for (const [price, live] of this.#levels[side]) {
        handled.add(price);
        let have = live.reduce((a, r) => a.add(r.left), D(0));
        const target = targetAt(price, want[side].get(price) ?? D(0));
        while (have.gt(target) && live.length > 0) {
          const r = live.pop()!;
          ex.cancel(account, market, { orderId: r.id });
          have = have.sub(r.left);
        }
        if (live.length === 0) this.#levels[side].delete(price);
        if (target.gt(have)) adds.push({ side, price, amount: target.sub(have) });
      }
      for (const [price, shown] of want[side]) {
        const amount = handled.has(price) ? D(0) : targetAt(price, shown);
        if (amount.gt(0)) adds.push({ side, price, amount });
      }
    }
    const stockPrec = ex.markets.get(market)?.stockPrec ?? 8;
    for (const a of adds) {
      // a quantity finer than the sim market's lot (e.g. old resting orders on Binance) is cut to the lot
      const amount = a.amount.toDecimalPlaces(stockPrec, Decimal.ROUND_DOWN);
      if (amount.isZero()) continue;
      const r = ex.placeLimit(account, { market, side: a.side, amount, price: D(a.price), stp: 'cancel_new' });
      if (!r.ok) continue;
      // it crossed clients' resting orders (they are the makers): what they took of it is eaten at its level
      this.#eaten.add(a.side, a.price, r.order.dealStock);
      if (r.order.left.isZero() || !ex.isOrderOpen(account, r.order.orderId)) continue;
      const list = this.#levels[a.side].get(a.price) ?? [];
      list.push({ id: r.order.orderId, left: r.order.left });
      this.#levels[a.side].set(a.price, list);
    }
  }

  /**
   * What clients took of the flow's resting orders since the last book (their takers; the fill model's unseen takers
   * never meet them) is eaten at its level; the orders are kept with what they have left.
   */
  #noteEaten(ex: SimExchange): void {
    const { account, market } = this;
    const left = new Map(ex.openOrders(account, { market, limit: 1_000_000 }).map((x) => [x.orderId, x.left]));
    for (const side of ['buy', 'sell'] as const) {
      for (const [price, list] of this.#levels[side]) {
        const live: Resting[] = [];
        for (const r of list) {
          const now = left.get(r.id);
          // only clients end a flow order between books: the mirror cancels its own here, in apply or withdraw
          this.#eaten.add(side, price, now === undefined ? r.left : r.left.sub(now));
          if (now === undefined) continue;
          r.left = now;
          live.push(r);
        }
        if (live.length === 0) this.#levels[side].delete(price);
        else this.#levels[side].set(price, live);
      }
    }
  }

  /**
   * Cancels every flow order of the mirror: the book it showed is no longer known, so nothing may fill against it.
   * What the clients ate is kept (header): the next book steps from the last one, as the backtest does across a gap.
   */
  withdraw(ex: SimExchange): void {
    this.#noteEaten(ex);
    for (const side of ['buy', 'sell'] as const) {
      for (const list of this.#levels[side].values()) for (const r of list) ex.cancel(this.account, this.market, { orderId: r.id });
      this.#levels[side].clear();
    }
  }
}

/**
 * The clients' resting orders nearest the other side: the highest buy (its reach into the flow's asks) and the lowest
 * sell (into the flow's bids).
 */
function clientReach(ex: SimExchange, market: string, flow: string): { buy: Decimal | undefined; sell: Decimal | undefined } {
  let buy: Decimal | undefined;
  let sell: Decimal | undefined;
  for (const o of ex.restingOrders(market, flow)) {
    if (o.side === 'buy') buy = buy === undefined || o.price.gt(buy) ? o.price : buy;
    else sell = sell === undefined || o.price.lt(sell) ? o.price : sell;
  }
  return { buy, sell };
}
