/**
 * What the clients ate of a mirrored book (book-mirror.ts), one market: per side and price level, the quantity that
 * matching took from the flow's orders there (a client's resting order crossed by a flow order the mirror placed, or
 * a client's taker order meeting the flow's resting ones), for as long as the upstream still shows it.
 *
 * The upstream (or recorded) book is the market WITHOUT us: after a client ate a seller there, the next book still
 * shows that seller. Re-placing it would let the same seller fill the same client twice, where the backtest's
 * pessimistic fill model (src/fill-model/fill-model.ts) counts a resting counterparty at or through an order's price
 * once: fill = max(0, X1 - X0). So the mirror shows a level as the upstream shows it LESS what was eaten there, and at
 * each upstream book (`settle`) the eaten quantities follow it. For the flow's asks (the bids are the mirror image):
 *  1. at every level, eaten := min(eaten, shown): a level that shows less than was eaten there lost those sellers,
 *     and a level that vanished forgets what was eaten there;
 *  2. except at or below the REACH, the highest price of a client's resting buy: there the levels are one pool, and
 *     what a level lost in 1. moves to the pool's levels that show more than was eaten there, best price first, as
 *     far as they do (the rest is forgotten). The model's X for a buy at P is the sellers at or below P counted
 *     together, wherever among those prices they rest: a seller that moves from 99 to 100 under a buy at 100 is not
 *     a new counterparty. So the pool keeps min(Σ eaten, Σ shown) over its levels, the model's X0 after a step.
 * Exactness, one resting buy at P that is not filled up: every flow ask placed at or below P crosses it, so after each
 * book the eaten quantity at or below P is that book's X (the buy's own taking on arrival included, the X0 with which
 * the model starts). At the next book the pool keeps min(X0, X1), the mirror places X1 - min(X0, X1) = max(0, X1 - X0)
 * at or below P, and the buy takes min(left, max(0, X1 - X0)) of it: the model's through term, step by step, levels
 * at several prices and partial fills included (test/backtest/paper-parity.test.ts checks it against the backtest).
 * What the clients see in the public book is the upstream's book less what they ate: what a real venue would show
 * after their trades.
 */
import { D, dmin, ZERO, type Decimal } from '../model/decimal.js';
import { gt, lt } from '../model/decimal-compare.js';
import type { Side } from '../model/order.js';

export class MirrorEaten {
  /** Per side of the FLOW's orders, keyed by `Decimal#toFixed()` of the price: positive amounts only. */
  readonly #eaten = { buy: new Map<string, Decimal>(), sell: new Map<string, Decimal>() };

  /** Clients ate `amount` of the flow's orders on `side` at `price`. */
  add(side: Side, price: string, amount: Decimal): void {
    if (!gt(amount, ZERO)) return;
    const m = this.#eaten[side];
    m.set(price, (m.get(price) ?? ZERO).add(amount));
  }

  /** The quantity eaten at a level, to be left out of the mirrored book there. */
  at(side: Side, price: string): Decimal {
    return this.#eaten[side].get(price) ?? ZERO;
  }

  /**
   * Moves what was eaten on the flow's `side` to the upstream's new levels `shown` (rules 1 and 2 of the header).
   * `reachOf()`: the price of the clients' resting order of the other side nearest the flow's side (for the flow's
   * asks the highest client buy, for its bids the lowest client sell), undefined when none rests there; asked only
   * when a level shows less than was eaten there.
   */
  settle(side: Side, shown: ReadonlyMap<string, Decimal>, reachOf: () => Decimal | undefined): void {
    const old = this.#eaten[side];
    if (old.size === 0) return;
    const next = new Map<string, Decimal>();
    // asks at or below the reach, bids at or above it
    const inPool = (price: Decimal): boolean => {
      const reach = reachOf();
      return reach !== undefined && (side === 'sell' ? !gt(price, reach) : !lt(price, reach));
    };
    let lost = ZERO;
    for (const [price, eaten] of old) {
      const kept = dmin(eaten, shown.get(price) ?? ZERO);
      if (gt(kept, ZERO)) next.set(price, kept);
      if (lt(kept, eaten) && inPool(D(price))) lost = lost.add(eaten.sub(kept));
    }
    if (gt(lost, ZERO)) {
      const pool = [...shown.keys()].map((k) => ({ key: k, price: D(k) })).filter((l) => inPool(l.price));
      // best price first: the flow's asks ascending, its bids descending
      pool.sort((a, b) => (side === 'sell' ? a.price.cmp(b.price) : b.price.cmp(a.price)));
      for (const { key } of pool) {
        const eaten = next.get(key) ?? ZERO;
        const room = shown.get(key)!.sub(eaten);
        if (!gt(room, ZERO)) continue;
        const moved = dmin(room, lost);
        next.set(key, eaten.add(moved));
        lost = lost.sub(moved);
        if (lost.isZero()) break;
      }
    }
    this.#eaten[side] = next;
  }
}
