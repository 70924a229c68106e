import { Decimal as DecimalJs } from 'decimal.js';

/**
 * Money type for every price, amount, fee, balance and PnL in the project.
 * A clone of decimal.js with enough precision that sums of venue amounts (<= 8 + 12 digits)
 * are always exact; numbers appear only in charts and benchmark figures.
 * Apart from decimal.ts (the helpers everyone imports) so that the allocation-free helpers beside it
 * (decimal-parts, -compare, -small, -estimate) can use the class while decimal.ts uses them, without a cycle.
 */
export const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;
