import { z } from 'zod';
import type { Balances, MainBalances } from '../model/balance.js';
import { parseShape, zDecimal } from './parse-shape.js';

const tradeSchema = z.record(z.string(), z.object({ available: zDecimal, freeze: zDecimal }));
const mainSchema = z.record(z.string(), z.object({ main_balance: zDecimal }));

/** Trade (spot) balance `{TICKER: {available, freeze}}`. */
export function parseTradeBalance(raw: unknown, endpoint = '/api/v4/trade-account/balance'): Balances {
  return parseShape(tradeSchema, raw, endpoint, 'trade balance');
}

/** Main balance `{TICKER: {main_balance}}` into ticker → amount. */
export function parseMainBalance(raw: unknown, endpoint = '/api/v4/main-account/balance'): MainBalances {
  const w = parseShape(mainSchema, raw, endpoint, 'main balance');
  return Object.fromEntries(Object.entries(w).map(([ticker, v]) => [ticker, v.main_balance]));
}
