import type { Decimal } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import type { DealRole, Side } from '../model/order.js';
import { type Cell, Ledger } from './ledger.js';
import { pow10, rateParts } from './units.js';

/** A fee rate as an exact fraction num / den. */
interface Rate {
  readonly num: bigint;
  readonly den: bigint;
}

function rate(fraction: Decimal): Rate {
  const { num, decimals } = rateParts(fraction);
  return { num, den: pow10(decimals) };
}

/** Smallest scale at which every amount × price × fee rate of the market is a whole number of units. */
export function requiredScale(m: Market): number {
  return m.stockPrec + m.moneyPrec + Math.max(m.makerFee.decimalPlaces(), m.takerFee.decimalPlaces());
}

/**
 * The funds one order holds: what is still locked for it and where, and where its fills pay out. The sim's
 * SimOrder and the backtest's VirtualOrder are holds, so the settlement moves their funds without a copy.
 */
export interface Hold {
  readonly side: Side;
  /** Units still locked: money for a buy, stock for a sell. */
  lockU: bigint;
  /** The account's money cell for a buy, stock cell for a sell. */
  readonly lockCell: Cell;
  /** The account's stock cell for a buy, money cell for a sell. */
  readonly gainCell: Cell;
}

/**
 * The one settlement of funds for one market (design.md: the sim's matching engine, the backtest's virtual exchange
 * and the paper venue all settle through it), on a ledger's exact integer units.
 *
 * Fees are charged in the MONEY asset: the buyer pays deal + fee out of the money it locked; the seller receives
 * deal − fee. A buy locks amount × price × (1 + feeLock), where feeLock is the highest rate the order can pay (the
 * maker rate for post-only/rpi orders, which never take; otherwise max(maker, taker)), so no fill at or below its
 * limit can overdraw the lock; a sell locks its amount of stock. Whatever the fills did not spend goes back to
 * available when the order ends (`release`). Fees go to the ledger's fee pool, so per asset
 * Σ(available + freeze) + fees collected only moves with what a counterparty outside the ledger gives or takes
 * (nothing, in the sim). `requiredScale` makes every product exact: no rounding anywhere.
 */
export class Settlement {
  private readonly tickDen: bigint;
  private readonly makerRate: Rate;
  private readonly takerRate: Rate;
  /** The rate a buy that may take locks its fee at: max(maker, taker). */
  private readonly lockRate: Rate;

  constructor(
    readonly market: Market,
    private readonly ledger: Ledger,
  ) {
    if (ledger.scale < requiredScale(market)) {
      throw new BotError(`sim: ledger scale ${ledger.scale} too small for ${market.name} (needs ${requiredScale(market)})`, { code: 'ERR_SIM_PRECISION' });
    }
    this.tickDen = pow10(market.moneyPrec);
    this.makerRate = rate(market.makerFee);
    this.takerRate = rate(market.takerFee);
    const m = this.makerRate;
    const t = this.takerRate;
    this.lockRate = m.num * t.den >= t.num * m.den ? m : t;
  }

  /** Money units of `units` of stock at `ticks` (price / price step); exact, as the scale covers stockPrec + moneyPrec. */
  notional(units: bigint, ticks: bigint): bigint {
    return (units * ticks) / this.tickDen;
  }

  /** What a buy locks: the notional plus its fee at the highest rate the order can pay. */
  buyLock(units: bigint, ticks: bigint, makerOnly: boolean): bigint {
    const n = this.notional(units, ticks);
    const r = makerOnly ? this.makerRate : this.lockRate;
    return n + (n * r.num) / r.den;
  }

  /** The fee a side of a fill of `deal` money units pays in its role. */
  fee(deal: bigint, role: DealRole): bigint {
    const r = role === 'maker' ? this.makerRate : this.takerRate;
    return (deal * r.num) / r.den;
  }

  /**
   * Locks what a new order of `units` at `ticks` needs from the account: undefined, and nothing locked, when the
   * available balance is short. `makerOnly`: the order can never take (post-only, rpi), so its fee locks at the maker rate.
   */
  lock(accountId: string, side: Side, units: bigint, ticks: bigint, makerOnly: boolean): Hold | undefined {
    const m = this.market;
    const buy = side === 'buy';
    const lockCell = this.ledger.cell(accountId, buy ? m.money : m.stock);
    const lockU = buy ? this.buyLock(units, ticks, makerOnly) : units;
    if (!Ledger.tryFreeze(lockCell, lockU)) return undefined;
    return { side, lockU, lockCell, gainCell: this.ledger.cell(accountId, buy ? m.stock : m.money) };
  }

  /**
   * Settles one order's side of a fill: `units` of stock for `deal` money units (the notional at the fill's price),
   * paying the fee of `role` into the fee pool. Returns that fee. A fill between two orders of the ledger settles
   * each side once, with the same deal.
   */
  fill(o: Hold, units: bigint, deal: bigint, role: DealRole): bigint {
    const fee = this.fee(deal, role);
    if (o.side === 'buy') {
      const spend = deal + fee;
      o.lockCell.freeze -= spend;
      o.lockU -= spend;
      o.gainCell.available += units;
    } else {
      o.lockCell.freeze -= units;
      o.lockU -= units;
      o.gainCell.available += deal - fee;
    }
    if (fee !== 0n) this.ledger.addFee(this.market.money, fee);
    return fee;
  }

  /** Ends an order's hold: what its fills did not spend goes back to available. */
  release(o: Hold): void {
    if (o.lockU !== 0n) Ledger.release(o.lockCell, o.lockU);
    o.lockU = 0n;
  }
}
