import { D, ZERO, dmin, type Decimal } from '../model/decimal.js';
import { cmp, gt } from '../model/decimal-compare.js';
import { dadd, dmul, dsub } from '../model/decimal-small.js';
import type { Side } from '../model/order.js';

/** What one fill contributes; fees are in the market's money (quote) currency, as the venue charges them. */
export interface LedgerFill {
  readonly side: Side;
  readonly amount: Decimal;
  readonly price: Decimal;
  readonly fee: Decimal;
}

export interface PnlSnapshot {
  /** Signed base position: > 0 long, < 0 short. */
  readonly position: Decimal;
  /** Average entry price of the open position (0 when flat). */
  readonly avgCost: Decimal;
  /** Realised trading PnL in money, BEFORE fees. */
  readonly realised: Decimal;
  /** Fees paid, in money. */
  readonly fees: Decimal;
  /** Money traded (sum of amount × price). */
  readonly volume: Decimal;
  readonly fills: number;
  readonly bought: Decimal;
  readonly sold: Decimal;
}

/** Decimal places kept when a share of the cost basis is released (any rounding keeps the books balanced, see below). */
const BASIS_DP = 12;

/**
 * Average-cost position ledger of one strategy on one market (Decimal only).
 * It keeps the open position's cost basis (money paid for a long, received for a short). A fill that adds to the
 * position adds amount × price to the basis; a fill that reduces it releases the matching share of the basis
 * (basis × closed / position, rounded to 12 places; all of it when the position closes) and realises the difference
 * with amount × price; a fill that crosses zero closes the old position and opens the rest at the fill price.
 * Because released basis only moves between "realised" and "open", realised + unrealised(mark) always equals the
 * exact cash flow plus position × mark, whatever the rounding. Net PnL = realised − fees + unrealised(mark).
 */
export class PnlLedger {
  private position = ZERO;
  private basis = ZERO;
  private realised = ZERO;
  private fees = ZERO;
  private volume = ZERO;
  private bought = ZERO;
  private sold = ZERO;
  private fills = 0;

  // The sums, differences and products through decimal-small (the same Decimals as decimal.js's, made on integers when
  // the operands are small, as fills' amounts, prices and fees are): every fill of a replay passes here.
  apply(fill: LedgerFill): void {
    const buy = fill.side === 'buy';
    const notional = dmul(fill.amount, fill.price);
    this.fills += 1;
    this.fees = dadd(this.fees, fill.fee);
    this.volume = dadd(this.volume, notional);
    if (buy) this.bought = dadd(this.bought, fill.amount);
    else this.sold = dadd(this.sold, fill.amount);

    // a sell subtracts its amount: dsub(pos, amount) is dadd(pos, amount.neg()) (decimal.js's plus of a negated value
    // is its minus), without the negated copy; the comparisons below read the parts without copying (decimal-compare)
    const pos = this.position;
    if (pos.isZero() || pos.isPositive() === buy) {
      this.basis = dadd(this.basis, notional);
      this.position = buy ? dadd(pos, fill.amount) : dsub(pos, fill.amount);
      return;
    }
    const size = pos.isNegative() ? pos.neg() : pos;
    const closing = dmin(fill.amount, size);
    const released = cmp(closing, size) === 0 ? this.basis : dmul(this.basis, closing).div(size).toDecimalPlaces(BASIS_DP);
    const value = dmul(closing, fill.price);
    // long: sold `closing` for `value` that cost `released`; short: bought back for `value` what brought `released`
    this.realised = dadd(this.realised, pos.isPositive() ? dsub(value, released) : dsub(released, value));
    this.basis = dsub(this.basis, released);
    this.position = buy ? dadd(pos, fill.amount) : dsub(pos, fill.amount);
    const opening = dsub(fill.amount, closing);
    if (gt(opening, ZERO)) this.basis = dmul(opening, fill.price);
  }

  /** Signed base position (what the risk check needs on every intent, without the snapshot's average cost). */
  currentPosition(): Decimal {
    return this.position;
  }

  /** Average entry price of the open position, for display (12 places). */
  avgCost(): Decimal {
    return this.position.isZero() ? ZERO : this.basis.div(this.position.abs()).toDecimalPlaces(BASIS_DP);
  }

  unrealised(mark: Decimal | undefined): Decimal {
    if (mark === undefined || this.position.isZero()) return ZERO;
    const value = this.position.abs().times(mark);
    return this.position.isPositive() ? value.minus(this.basis) : this.basis.minus(value);
  }

  /** realised − fees + unrealised at `mark`. */
  net(mark: Decimal | undefined): Decimal {
    return this.realised.minus(this.fees).plus(this.unrealised(mark));
  }

  snapshot(): PnlSnapshot {
    return {
      position: this.position,
      avgCost: this.avgCost(),
      realised: this.realised,
      fees: this.fees,
      volume: this.volume,
      fills: this.fills,
      bought: this.bought,
      sold: this.sold,
    };
  }
}

/** Parses the decimal strings of a journalled fill back (the journal stores Decimals as strings). */
export function ledgerFillFromStrings(f: { side: Side; amount: string; price: string; fee: string }): LedgerFill {
  return { side: f.side, amount: D(f.amount), price: D(f.price), fee: D(f.fee) };
}
