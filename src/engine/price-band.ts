import { D, fmt, type Decimal } from '../model/decimal.js';
import { dadd, dmul, dsub } from '../model/decimal-small.js';
import { within } from '../streams/within-fraction.js';
import type { RiskDecision, RiskLimits } from './risk-limits.js';

/** Default `maxDeviation`: an order more than 5 % from the reference price is refused. */
export const DEFAULT_MAX_DEVIATION = D('0.05');

/** The price an order's price is measured against. */
export interface PriceReference {
  readonly price: Decimal;
  /** `mid`: the last sane book's mid; `last-trade`: the market's last fill known to the engine (no sane mid yet). */
  readonly source: 'mid' | 'last-trade';
}

/** The prices of an (already quantized) order that the band applies to. */
export interface BandOrder {
  readonly side: 'buy' | 'sell';
  readonly price: Decimal;
  /** A stop-limit's trigger: checked too, it is a price the order acts at. */
  readonly activationPrice?: Decimal;
}

/** The band of a strategy: its `maxDeviation`, the default when absent, none when `false`. */
export function maxDeviationOf(limits: RiskLimits): Decimal | undefined {
  const m = limits.maxDeviation;
  return m === false ? undefined : (m ?? DEFAULT_MAX_DEVIATION);
}

const ok: RiskDecision = { ok: true };

/**
 * The price band: refuses an order priced more than `maxDeviation` (a fraction) from the reference price, on
 * either side: a buy far above is a price no sane book offers, a buy far below a quote built on a lie; a stop-limit's
 * activation price and limit price are both checked. With no band (`undefined`) everything passes; with a band
 * but no reference the order is refused, as nothing says its price is sane. Exactly at the band's edge passes. Pure.
 */
export function checkPriceBand(maxDeviation: Decimal | undefined, reference: PriceReference | undefined, order: BandOrder): RiskDecision {
  if (maxDeviation === undefined) return ok;
  if (reference === undefined) {
    return {
      ok: false,
      reason: 'price-band',
      message: `no sane reference price (no sane book and no trade yet): ${order.side} at ${fmt(order.price)} not sent`,
    };
  }
  const ref = reference.price;
  if (order.activationPrice !== undefined && !within(order.activationPrice, ref, maxDeviation))
    return outside('activation price', order.activationPrice, reference, maxDeviation);
  if (!within(order.price, ref, maxDeviation)) return outside('price', order.price, reference, maxDeviation);
  return ok;
}

function outside(what: string, price: Decimal, reference: PriceReference, maxDeviation: Decimal): RiskDecision {
  const ref = reference.price;
  const width = dmul(ref, maxDeviation);
  const off = price.minus(ref).div(ref).times(100).toDecimalPlaces(2);
  const source = reference.source === 'mid' ? 'sane mid' : 'last trade';
  return {
    ok: false,
    reason: 'price-band',
    message: `${what} ${fmt(price)} is ${off.isNegative() ? '' : '+'}${off.toFixed()} % from the ${source} ${fmt(ref)}; band ±${fmt(maxDeviation.times(100))} % (${fmt(dsub(ref, width))} to ${fmt(dadd(ref, width))})`,
  };
}
