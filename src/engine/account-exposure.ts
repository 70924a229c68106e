import { ZERO, type Decimal } from '../model/decimal.js';
import { lte } from '../model/decimal-compare.js';
import { dadd, dmul } from '../model/decimal-small.js';
import type { Side } from '../model/order.js';
import { leftOf } from './journal-replay.js';

/** One strategy as the account limits see it: its market and its own PnL ledger (positions come from its fills). */
export interface StrategyExposure {
  readonly id: string;
  readonly market: string;
  readonly ledger: {
    net(mark: Decimal | undefined): Decimal;
    currentPosition(): Decimal;
    avgCost(): Decimal;
  };
}

/** A live order as the tracker holds it (`left` is derived from the venue's last word and the deals seen). */
export interface ExposureOrder {
  readonly strategyId: string;
  readonly side: Side;
  readonly price: Decimal;
  readonly amount: Decimal;
  readonly venueLeft: Decimal;
  readonly dealt: Decimal;
}

/** What the account limits read from the engine, each time they look (nothing is copied or polled). */
export interface ExposureSources {
  readonly strategies: readonly StrategyExposure[];
  /** The engine's latest mid of a market (undefined before its first book). */
  mid(market: string): Decimal | undefined;
  liveOrders(): Iterable<ExposureOrder>;
}

/**
 * Account equity: the sum of the strategies' net PnL (realised − fees + unrealised at each market's mid), in their one
 * money asset. Undefined while a strategy holds a position in a market with no mid yet: valuing that position at 0
 * would make a peak or a drawdown out of nothing.
 */
export function accountEquity(s: ExposureSources): Decimal | undefined {
  let equity = ZERO;
  for (const x of s.strategies) {
    const mid = s.mid(x.market);
    if (mid === undefined && !x.ledger.currentPosition().isZero()) return undefined;
    equity = equity.plus(x.ledger.net(mid));
  }
  return equity;
}

/** The parts of the gross notional, money asset. */
export interface GrossNotional {
  /** Σ over strategies of |position| × mid (the average cost while a market has no mid yet). */
  readonly positions: Decimal;
  /** Σ over live orders of left × limit price. */
  readonly orders: Decimal;
  readonly total: Decimal;
}

/** What the account holds and has offered, valued: the measure `maxGrossNotional` bounds. */
export function grossNotional(s: ExposureSources): GrossNotional {
  let positions = ZERO;
  for (const x of s.strategies) {
    const position = x.ledger.currentPosition();
    if (position.isZero()) continue;
    positions = positions.plus(position.abs().times(s.mid(x.market) ?? x.ledger.avgCost()));
  }
  let orders = ZERO;
  for (const o of s.liveOrders()) orders = dadd(orders, dmul(leftOf(o), o.price));
  return { positions, orders, total: positions.plus(orders) };
}

/**
 * True when the order can only bring its strategy's position toward zero: it is on the side opposite the position
 * and, with the strategy's live orders on that side, no larger than the position. Such an order lowers the gross
 * notional once it fills, so it is never refused (refusing it would trap the position the limit is there to bound).
 */
export function onlyReduces(position: Decimal, sameSideLeft: Decimal, order: { readonly side: Side; readonly amount: Decimal }): boolean {
  if (position.isZero()) return false;
  const opposite = order.side === 'buy' ? position.isNegative() : position.isPositive();
  return opposite && lte(dadd(sameSideLeft, order.amount), position.abs());
}

/** Left of a strategy's live orders on one side. */
export function sideLeft(orders: Iterable<ExposureOrder>, strategyId: string, side: Side): Decimal {
  let left = ZERO;
  for (const o of orders) if (o.strategyId === strategyId && o.side === side) left = dadd(left, leftOf(o));
  return left;
}
