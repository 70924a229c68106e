import type { Balances } from '../model/balance.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import { dsub } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';
import { moneyLock } from './gate.js';
import { leftOf } from './journal-replay.js';
import type { TrackedOrder } from './order-tracker.js';

/** A polled value with the engine time its request started (what the venue's answer can reflect at most). */
export interface Stamped<T> {
  readonly startedAt: number;
  readonly value: T;
}

/**
 * What the account can still commit in `market`: the last trade balance snapshot's `available`, minus what
 * the engine's own live orders lock that the snapshot cannot reflect yet (pending/unknown ones, and those
 * first confirmed after the snapshot's request started). Cancels after the snapshot are not credited back,
 * so the estimate errs on the safe side. Undefined before the first snapshot (then the check is skipped).
 */
export function freeFunds(
  market: Market,
  balances: Stamped<Balances> | undefined,
  live: Iterable<TrackedOrder>,
): { stock: Decimal; money: Decimal } | undefined {
  if (!balances) return undefined;
  let stock = balances.value[market.stock]?.available ?? ZERO;
  let money = balances.value[market.money]?.available ?? ZERO;
  // dsub: decimal.js's minus without its copy of the operand (model/decimal-small.ts: the same value, part for part);
  // this runs for every place, over every live order the snapshot cannot show
  for (const o of live) {
    const locks = lockedBy(o, market, balances.startedAt);
    if (locks === 'money') money = dsub(money, moneyLock(market, leftOf(o), o.price));
    else if (locks === 'stock') stock = dsub(stock, leftOf(o));
  }
  return { stock, money };
}

/**
 * Which of `market`'s assets a live order locks that a balance snapshot whose request started at `startedAt` cannot
 * show (the order confirmed after it started, or not yet): a buy the market's money, a sell its stock, when the
 * order's market shares that asset; undefined when it locks neither. freeFunds and the gate's estimate of it
 * (lazy-free-funds.ts) count the same orders through this one test.
 */
export function lockedBy(o: TrackedOrder, market: Market, startedAt: number): 'money' | 'stock' | undefined {
  if (!(o.confirmedAt === undefined || o.confirmedAt >= startedAt)) return undefined;
  if (o.side === 'buy') return marketMoney(o.market) === market.money ? 'money' : undefined;
  return marketStock(o.market) === market.stock ? 'stock' : undefined;
}

// Market names are STOCK_MONEY on this venue; orders of other markets may share an asset. Split once per name
// (this runs for every live order on every intent).
const assetsOf = new Map<string, { readonly stock: string; readonly money: string }>();
function assets(name: string): { readonly stock: string; readonly money: string } {
  let a = assetsOf.get(name);
  if (a === undefined) {
    a = { stock: name.split('_')[0] ?? name, money: name.split('_').slice(1).join('_') };
    assetsOf.set(name, a);
  }
  return a;
}
/** The stock asset of a market's name (STOCK_MONEY), as freeFunds reads an order's. */
function marketStock(name: string): string {
  return assets(name).stock;
}
/** The money asset of a market's name (STOCK_MONEY), as freeFunds reads an order's. */
function marketMoney(name: string): string {
  return assets(name).money;
}
