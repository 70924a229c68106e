import type { Decimal } from './decimal.js';

/**
 * A market's trading rules, in domain form. Built from the markets endpoint
 * (`parseMarket` in venue/) or from config; the rules module is the only code that interprets them.
 */
export interface Market {
  /** Market name as the venue spells it, e.g. `BTC_USDT`. */
  readonly name: string;
  /** Base ("stock") asset ticker. */
  readonly stock: string;
  /** Quote ("money") asset ticker; fees are charged in it. */
  readonly money: string;
  /** Decimal places of the amount (`stockPrec`); the amount step is 10^-stockPrec. */
  readonly stockPrec: number;
  /** Decimal places of the price (`moneyPrec`); the price step is 10^-moneyPrec. */
  readonly moneyPrec: number;
  /** Smallest amount an order may have. */
  readonly minAmount: Decimal;
  /** Smallest total (amount × price). */
  readonly minTotal: Decimal;
  /** Largest total, or null for no cap (the venue's `"0"`). */
  readonly maxTotal: Decimal | null;
  /** Smallest price; defaults to one price step. */
  readonly minPrice?: Decimal;
  /** Maker fee as a fraction (the venue's percent / 100): 0.001 = 0.1 %. */
  readonly makerFee: Decimal;
  /** Taker fee as a fraction. */
  readonly takerFee: Decimal;
  readonly tradesEnabled: boolean;
}
