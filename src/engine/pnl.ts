import { D, ZERO, dmin, type Decimal } from '../model/decimal.js';
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

/**
 * Average-cost position ledger of one strategy on one market (Decimal only).
 * A fill that reduces the position realises (price − avgCost) × closed amount (sign by side); a fill that
 * crosses zero closes the old position and opens the rest at the fill price; adding to a position re-averages.
 * Net PnL = realised − fees + unrealised(mark).
 */
export class PnlLedger {
  private position = ZERO;
  private avgCost = ZERO;
  private realised = ZERO;
  private fees = ZERO;
  private volume = ZERO;
  private bought = ZERO;
  private sold = ZERO;
  private fills = 0;

  apply(fill: LedgerFill): void {
    const signed = fill.side === 'buy' ? fill.amount : fill.amount.neg();
    this.fills += 1;
    this.fees = this.fees.plus(fill.fee);
    this.volume = this.volume.plus(fill.amount.times(fill.price));
    if (fill.side === 'buy') this.bought = this.bought.plus(fill.amount);
    else this.sold = this.sold.plus(fill.amount);

    const pos = this.position;
    if (pos.isZero() || pos.isPositive() === signed.isPositive()) {
      // opening or adding: re-average
      const total = pos.plus(signed);
      this.avgCost = pos.abs().times(this.avgCost).plus(fill.amount.times(fill.price)).div(total.abs());
      this.position = total;
      return;
    }
    // reducing, maybe crossing zero
    const closing = dmin(fill.amount, pos.abs());
    const perUnit = pos.isPositive() ? fill.price.minus(this.avgCost) : this.avgCost.minus(fill.price);
    this.realised = this.realised.plus(perUnit.times(closing));
    const total = pos.plus(signed);
    this.position = total;
    if (total.isZero()) this.avgCost = ZERO;
    else if (total.isPositive() !== pos.isPositive()) this.avgCost = fill.price;
  }

  unrealised(mark: Decimal | undefined): Decimal {
    if (mark === undefined || this.position.isZero()) return ZERO;
    return mark.minus(this.avgCost).times(this.position);
  }

  /** realised − fees + unrealised at `mark`. */
  net(mark: Decimal | undefined): Decimal {
    return this.realised.minus(this.fees).plus(this.unrealised(mark));
  }

  snapshot(): PnlSnapshot {
    return {
      position: this.position,
      avgCost: this.avgCost,
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
