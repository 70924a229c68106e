import type { Balances } from '../model/balance.js';
import type { Decimal } from '../model/decimal.js';
import { ESTIMATE_REL_ERROR, estimate } from '../model/decimal-estimate.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { freeFunds, lockedBy, type Stamped } from './free-funds.js';
import { feeFactor, type FreeFunds } from './gate.js';
import { leftOf } from './journal-replay.js';
import type { OrderTracker } from './order-tracker.js';

/** Bound on a product of three estimates' relative error (3 × the estimates', two double roundings), with room. */
const PRODUCT_REL = 8 * ESTIMATE_REL_ERROR;
/** One double rounding (2^-53), with room: each subtraction of the funds' sum adds at most this of its magnitude. */
const ROUNDING = 2 ** -52;

/**
 * The funds the gate checks a place against (freeFunds), worked out when first read; and, before that, whether the
 * estimates (decimal-estimate.ts) of the same figures settle the check: the need plainly below what is free, further
 * than every error bound. An account with room to spare (the usual place) then makes no exact product or difference
 * of the funds or of the need. Read within the place that made it (the gate's call: the tracker does not change there).
 */
export class LazyFreeFunds implements FreeFunds {
  #exact: { stock: Decimal; money: Decimal } | undefined;

  constructor(
    private readonly market: Market,
    private readonly balances: Stamped<Balances>,
    private readonly tracker: OrderTracker,
  ) {}

  get stock(): Decimal {
    return this.#funds().stock;
  }

  get money(): Decimal {
    return this.#funds().money;
  }

  /**
   * freeFunds' sum for the side's asset, in estimates: the snapshot's available less what each live order the snapshot
   * cannot show locks (a buy: moneyLock of its left; a sell: its left), then the need of the order asked about, each
   * with its error bound. True only when the need plus its bound is below the funds less theirs, so the exact need is
   * below the exact funds (gt(need, have) is false); NaN anywhere (a value not estimated) answers false.
   */
  plainlyCovers(side: Side, amount: Decimal, price: Decimal): boolean {
    const m = this.market;
    const buy = side === 'buy';
    const asset = buy ? m.money : m.stock;
    const available = this.balances.value[asset]?.available;
    let have = available === undefined ? 0 : estimate(available);
    let size = Math.abs(have);
    let terms = 1;
    const factorF = buy ? estimate(feeFactor(m)) : 1;
    const startedAt = this.balances.startedAt;
    const counted = buy ? 'money' : 'stock';
    for (const o of this.tracker.liveValues()) {
      // the orders freeFunds counts against this asset
      if (lockedBy(o, m, startedAt) !== counted) continue;
      const left = estimate(leftOf(o));
      const lock = buy ? left * estimate(o.price) * factorF : left;
      have -= lock;
      size += Math.abs(lock);
      terms += 1;
    }
    const need = buy ? estimate(amount) * estimate(price) * factorF : estimate(amount);
    // the funds' error: each term's own (a product's bound covers a single estimate's too) and the subtractions'
    const haveErr = (PRODUCT_REL + terms * ROUNDING) * size;
    return need + PRODUCT_REL * Math.abs(need) < have - haveErr;
  }

  #funds(): { stock: Decimal; money: Decimal } {
    this.#exact ??= freeFunds(this.market, this.balances, this.tracker.liveValues())!;
    return this.#exact;
  }
}
