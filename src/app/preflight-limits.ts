import type { Balances } from '../model/balance.js';
import { D, Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { RiskLimits } from '../engine/risk-limits.js';
import { limitTickerProblems } from '../settings/limit-tickers.js';

/** One line of `bot check`: `ok`, `warn` (passes, but look at it) or `FAIL`. */
export interface PreflightCheck {
  readonly status: 'ok' | 'warn' | 'FAIL';
  readonly text: string;
  /** A FAIL because the venue could not be reached (the command then exits 3). */
  readonly unreachable?: boolean;
}

export const ok = (text: string): PreflightCheck => ({ status: 'ok', text });
export const warn = (text: string): PreflightCheck => ({ status: 'warn', text });
export const fail = (text: string): PreflightCheck => ({ status: 'FAIL', text });

/**
 * The size of one order as a built-in strategy's (parsed) params give it: the market maker's `size`, the grid's
 * `amount`, a TWAP slice (`total / slices`), the stop guard's `maxAmount`. Undefined for a strategy of the user's
 * own (its params mean what it says) or when the params leave it open.
 */
export function orderSizeOf(use: string, params: Readonly<Record<string, unknown>>): Decimal | undefined {
  const dec = (v: unknown): Decimal | undefined => (v !== undefined && v !== null && typeof (v as Decimal).times === 'function' ? (v as Decimal) : undefined);
  switch (use) {
    case 'market-maker':
      return dec(params['size']);
    case 'grid':
      return dec(params['amount']);
    case 'twap': {
      const total = dec(params['total']);
      const slices = params['slices'];
      return total !== undefined && typeof slices === 'number' && slices > 0 ? total.div(slices) : undefined;
    }
    case 'stop-guard':
      return dec(params['maxAmount']);
    default:
      return undefined;
  }
}

export interface StrategyUnderCheck {
  readonly id: string;
  readonly use: string;
  readonly market: string;
  /** Parsed by the strategy's own schema (decimals are Decimal). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly risk: RiskLimits & { readonly unlimited?: boolean | undefined };
}

/**
 * A strategy's limits against the market's rules and the account's balances: the limits a REST venue requires,
 * maxOrderNotional at or above the minimum total, maxInventory keyed by the market's tickers, the params' order
 * size a valid order within the limits at `price`, and enough balance for at least one order.
 */
export function strategyLimitChecks(
  s: StrategyUnderCheck,
  market: Market,
  o: { readonly restVenue: boolean; readonly price?: Decimal; readonly balances?: Balances },
): PreflightCheck[] {
  const out: PreflightCheck[] = [];
  const missing = (['maxOrderNotional', 'maxLoss'] as const).filter((k) => s.risk[k] === undefined);
  if (missing.length > 0) {
    const what = `${s.id}: no ${missing.join(' and no ')}`;
    if (s.risk.unlimited === true) out.push(warn(`${what} (risk.unlimited: true says that is meant)`));
    else if (o.restVenue) out.push(fail(`${what}: a rest venue needs both (or risk.unlimited: true)`));
    else out.push(warn(`${what}: fine on the sim, required on a rest venue`));
  } else out.push(ok(`${s.id}: maxOrderNotional ${s.risk.maxOrderNotional!.toFixed()} and maxLoss ${s.risk.maxLoss!.toFixed()} ${market.money} set`));

  const notional = s.risk.maxOrderNotional;
  if (notional !== undefined && notional.lt(market.minTotal)) {
    out.push(
      fail(`${s.id}: maxOrderNotional ${notional.toFixed()} is below the market's minimum total ${market.minTotal.toFixed()}: every order would be refused`),
    );
  }
  const tickers = limitTickerProblems([s], new Map([[market.name, market]]));
  for (const t of tickers) out.push(fail(`${s.id}: ${t.replace(/^strategies\[0\]\./, '')}`));
  if (s.risk.maxInventory !== undefined && tickers.length === 0)
    out.push(ok(`${s.id}: maxInventory keyed by ${Object.keys(s.risk.maxInventory).join(', ') || 'nothing'}`));

  const size = orderSizeOf(s.use, s.params);
  if (size !== undefined && o.price !== undefined) out.push(...sizeChecks(s, market, size, o.price));
  else if (size !== undefined)
    out.push(warn(`${s.id}: the ${market.name} book is empty or unreadable: the order size ${size.toFixed()} is not checked against a price`));
  if (o.balances !== undefined)
    out.push(balanceCheck(s.id, market, o.balances, size !== undefined && o.price !== undefined ? { size, price: o.price } : undefined));
  return out;
}

function sizeChecks(s: StrategyUnderCheck, market: Market, size: Decimal, price: Decimal): PreflightCheck[] {
  const total = size.times(price);
  const at = `an order of ${size.toFixed()} ${market.stock} at ~${price.toFixed()} is ${total.toDecimalPlaces(2).toFixed()} ${market.money}`;
  const problems: string[] = [];
  if (size.lt(market.minAmount)) problems.push(`below the minimum amount ${market.minAmount.toFixed()}`);
  if (total.lt(market.minTotal)) problems.push(`below the minimum total ${market.minTotal.toFixed()}`);
  if (s.risk.maxOrderNotional !== undefined && total.gt(s.risk.maxOrderNotional)) problems.push(`above maxOrderNotional ${s.risk.maxOrderNotional.toFixed()}`);
  const stockLimit = s.risk.maxInventory?.[market.stock];
  if (stockLimit !== undefined && size.gt(stockLimit)) problems.push(`above maxInventory ${market.stock} ${stockLimit.toFixed()}`);
  return problems.length === 0 ? [ok(`${s.id}: ${at}, within the market's minimums and the limits`)] : [fail(`${s.id}: ${at}, ${problems.join(', ')}`)];
}

function balanceCheck(id: string, market: Market, balances: Balances, order: { size: Decimal; price: Decimal } | undefined): PreflightCheck {
  const money = balances[market.money]?.available ?? D(0);
  const stock = balances[market.stock]?.available ?? D(0);
  const needMoney = order === undefined ? market.minTotal : Decimal.max(market.minTotal, order.size.times(order.price));
  const needStock = order === undefined ? market.minAmount : Decimal.max(market.minAmount, order.size);
  const have = `${money.toFixed()} ${market.money}, ${stock.toFixed()} ${market.stock} available`;
  if (money.gte(needMoney) || stock.gte(needStock)) return ok(`${id}: balance for at least one order (${have})`);
  return fail(
    `${id}: not enough balance for one order: ${have}; a buy needs ${needMoney.toFixed()} ${market.money}, a sell ${needStock.toFixed()} ${market.stock}`,
  );
}
