import type { Balances } from '../model/balance.js';
import type { Decimal } from '../model/decimal.js';
import { estimate, plainSign } from '../model/decimal-estimate.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { freeFunds, lockedBy, type Stamped } from './free-funds.js';
import { feeFactor, type FreeFunds } from './gate.js';
import { leftOf } from './journal-replay.js';
import type { OrderTracker } from './order-tracker.js';

/** Error terms (plainSign) of the estimates in funds − need: a product of three (amount × price × fee factor), with room. */
const PRODUCT_TERMS = 8;

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
   * with its error bound. True only when the funds less the need are plainly above zero, so the exact need is
   * below the exact funds (gt(need, have) is false); NaN anywhere (a value not estimated) answers false.
   */
  plainlyCovers(side: Side, amount: Decimal, price: Decimal): boolean {
    const m = this.market;
    const buy = side === 'buy';
    const asset = buy ? m.money : m.stock;
    const available = this.balances.value[asset]?.available;
    let have = available === undefined ? 0 : estimate(available);
    let size = Math.abs(have);
    let subtractions = 1; // the need's
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
      subtractions += 1;
    }
    const need = buy ? estimate(amount) * estimate(price) * factorF : estimate(amount);
    // the estimates' error terms, and one for each subtraction's rounding: the live orders are not bounded in number
    return plainSign(have - need, size + Math.abs(need), PRODUCT_TERMS + subtractions) === 1;
  }

  #funds(): { stock: Decimal; money: Decimal } {
    this.#exact ??= freeFunds(this.market, this.balances, this.tracker.liveValues())!;
    return this.#exact;
  }
}
