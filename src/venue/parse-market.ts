import { z } from 'zod';
import { D } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import { parseShape, zDecimal } from './parse-shape.js';

const precision = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(Number);

const marketSchema = z.object({
  name: z.string().min(1),
  stock: z.string().min(1),
  money: z.string().min(1),
  stockPrec: precision,
  moneyPrec: precision,
  makerFee: zDecimal,
  takerFee: zDecimal,
  minAmount: zDecimal,
  minTotal: zDecimal,
  maxTotal: zDecimal,
  tradesEnabled: z.boolean(),
});

const HUNDRED = D(100);

/**
 * One market record into the domain Market: precisions to integers, fees from percent strings to
 * fractions ("0.1" → 0.001), `maxTotal` "0" (no cap) to null.
 */
export function parseMarket(raw: unknown, endpoint = '/api/v4/public/markets'): Market {
  return toMarket(parseShape(marketSchema, raw, endpoint, 'market record'));
}

/** The markets list. */
export function parseMarkets(raw: unknown, endpoint = '/api/v4/public/markets'): Market[] {
  return parseShape(z.array(marketSchema), raw, endpoint, 'list of market records').map(toMarket);
}

function toMarket(w: z.output<typeof marketSchema>): Market {
  return {
    name: w.name,
    stock: w.stock,
    money: w.money,
    stockPrec: w.stockPrec,
    moneyPrec: w.moneyPrec,
    minAmount: w.minAmount,
    minTotal: w.minTotal,
    maxTotal: w.maxTotal.isZero() ? null : w.maxTotal,
    makerFee: w.makerFee.div(HUNDRED),
    takerFee: w.takerFee.div(HUNDRED),
    tradesEnabled: w.tradesEnabled,
  };
}
