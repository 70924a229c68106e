import type { Decimal } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import type { StpMode } from '../model/order.js';
import type { StpInput } from './sim-types.js';
import { scaledSafeInteger } from './units.js';

const STP_LONG: Readonly<Record<StpInput, StpMode>> = { no: 'no', cancel_both: 'cancel_both', cancel_new: 'cancel_new', cancel_old: 'cancel_old', cb: 'cancel_both', cn: 'cancel_new', co: 'cancel_old' };

/** Long form of a venue stp value (short forms cb/cn/co accepted); default `no`. */
export function normaliseStp(stp: StpInput | undefined): StpMode {
  return stp === undefined ? 'no' : STP_LONG[stp];
}

/** Price in integer steps; prices reach the exchange already on the step (src/rules validated them). */
export function toTicks(price: Decimal, moneyPrec: number): number {
  const n = scaledSafeInteger(price, moneyPrec);
  if (n === undefined || n <= 0) {
    throw new BotError(`sim: price ${price.toFixed()} is not on the ${moneyPrec}-decimal grid`, { code: 'ERR_SIM_PRICE_GRID' });
  }
  return n;
}
