import type { Decimal } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import { toStpMode, type StpMode } from '../model/order.js';
import type { StpInput } from './sim-types.js';
import { scaledSafeInteger } from './units.js';

/** Long form of a venue stp value (short forms cb/cn/co accepted); default `no`. */
export function normaliseStp(stp: StpInput | undefined): StpMode {
  return toStpMode(stp) ?? 'no';
}

/** Price in integer steps; prices reach the exchange already on the step (src/rules validated them). */
export function toTicks(price: Decimal, moneyPrec: number): number {
  const n = scaledSafeInteger(price, moneyPrec);
  if (n === undefined || n <= 0) {
    throw new BotError(`sim: price ${price.toFixed()} is not on the ${moneyPrec}-decimal grid`, { code: 'ERR_SIM_PRICE_GRID' });
  }
  return n;
}
