import { gt } from '../model/decimal-compare.js';
import type { Decimal } from '../model/decimal.js';
import { partsOf } from '../model/decimal-parts.js';
import type { Deal, Order } from '../model/order.js';

/**
 * What a well-formed answer can still get wrong on its own: figures no real order or deal can have. A venue's answer
 * is evidence, not truth (design.md): these checks need nothing but the record itself, so every reader of venue
 * records (the executor, the open-orders sync, reconcile, the deals poll, restart adoption) applies them before
 * anything is journalled or acted on. Each returns the defects found, empty when none (a reason per defect, for the
 * log and the alert; never a price of someone else's order in a label).
 */

/** An order record whose figures cannot describe a real order: negative or over-full amounts, non-positive prices. */
export function orderRecordDefects(o: Order): string[] {
  const out: string[] = [];
  if (!o.amount.isFinite() || !o.amount.isPositive() || o.amount.isZero()) out.push(`amount ${o.amount.toFixed()} is not positive`);
  if (!o.price.isFinite() || !o.price.isPositive() || o.price.isZero()) out.push(`price ${o.price.toFixed()} is not positive`);
  if (o.activationPrice !== undefined && (!o.activationPrice.isPositive() || o.activationPrice.isZero()))
    out.push(`activation price ${o.activationPrice.toFixed()} is not positive`);
  // the comparisons without decimal.js's copy of their operand (decimal-compare.ts: same answers, NaN included): every
  // place and cancel answer passes here
  if (o.left.isNegative()) out.push(`left ${o.left.toFixed()} is negative`);
  else if (gt(o.left, o.amount)) out.push(`left ${o.left.toFixed()} is above the amount ${o.amount.toFixed()}`);
  if (o.dealStock.isNegative()) out.push(`deal stock ${o.dealStock.toFixed()} is negative`);
  else if (gt(o.dealStock, o.amount)) out.push(`deal stock ${o.dealStock.toFixed()} is above the amount ${o.amount.toFixed()}`);
  else if (gt(plusDealt(o.left, o.dealStock), o.amount))
    out.push(`left ${o.left.toFixed()} + deal stock ${o.dealStock.toFixed()} is above the amount ${o.amount.toFixed()}`);
  if (o.dealMoney.isNegative()) out.push(`deal money ${o.dealMoney.toFixed()} is negative`);
  if (o.dealFee.isNegative()) out.push(`deal fee ${o.dealFee.toFixed()} is negative`);
  return out;
}

/**
 * `left.plus(dealt)`, without the new Decimal when nothing was dealt (most answers): `left` itself is then the sum's very
 * value as long as it has too few digits for decimal.js's rounding to 60 significant digits to touch it (8 base-1e7
 * words hold at most 56).
 */
function plusDealt(left: Decimal, dealt: Decimal): Decimal {
  return dealt.isZero() && (partsOf(left).d?.length ?? Infinity) <= 8 ? left : left.plus(dealt);
}

/** A deal that cannot be a real execution: non-positive amount or price, a negative fee or value. */
export function dealDefects(d: Deal): string[] {
  const out: string[] = [];
  if (!d.amount.isFinite() || !d.amount.isPositive() || d.amount.isZero()) out.push(`amount ${d.amount.toFixed()} is not positive`);
  if (!d.price.isFinite() || !d.price.isPositive() || d.price.isZero()) out.push(`price ${d.price.toFixed()} is not positive`);
  if (d.fee.isNegative()) out.push(`fee ${d.fee.toFixed()} is negative`);
  if (d.deal.isNegative()) out.push(`value ${d.deal.toFixed()} is negative`);
  return out;
}
