import { randomBytes } from 'node:crypto';
import { D } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import { requiredScale } from './settlement.js';
import type { SimConfig } from './sim-config.js';
import type { SimAccount } from './sim-types.js';

const HUNDRED = D(100);

/** Domain market from its config entry (fees: percent → fraction). */
export function marketFromConfig(m: SimConfig['markets'][number]): Market {
  return {
    name: m.name,
    stock: m.stock,
    money: m.money,
    stockPrec: m.stockPrec,
    moneyPrec: m.moneyPrec,
    minAmount: m.minAmount,
    minTotal: m.minTotal,
    maxTotal: m.maxTotal.isZero() ? null : m.maxTotal,
    makerFee: m.makerFee.div(HUNDRED),
    takerFee: m.takerFee.div(HUNDRED),
    tradesEnabled: m.tradesEnabled,
  };
}

/** An account from its config entry; keys not configured are random (a fresh pair per exchange). */
export function accountFromConfig(a: SimConfig['accounts'][number]): SimAccount {
  return {
    id: a.name,
    name: a.name,
    partner: a.partner,
    internal: a.internal,
    apiKey: a.apiKey ?? randomBytes(16).toString('hex'),
    apiSecret: a.apiSecret ?? randomBytes(32).toString('hex'),
  };
}

/**
 * Decimal places of the ledger's integer units: enough for every market's amount × price × fee rate
 * and every configured balance, and at least 8 so codes (<= 8 places) always fit. No larger than
 * needed: small units keep the bigints short and the conversions on the fast path.
 */
export function ledgerScale(config: SimConfig, markets: ReadonlyMap<string, Market>): number {
  let scale = 8;
  for (const m of markets.values()) scale = Math.max(scale, requiredScale(m));
  for (const a of config.accounts) for (const v of [...Object.values(a.trade), ...Object.values(a.main)]) scale = Math.max(scale, v.decimalPlaces());
  return scale;
}
