/**
 * The strategy SDK: everything a strategy module imports (plus `rxjs` and, for indicators, `trading-signals`,
 * imported directly).
 * Test helpers live in `./testing.js`; loading strategies by name or path in `./load-strategy.js`.
 */
export { defineStrategy } from './define-strategy.js';
export type { StrategyDefinition } from './define-strategy.js';
export type { StrategyRegistry } from './strategy-registry.js';
export { placeLimit, placeStopLimit, cancel, cancelAll } from './intents.js';
export type { Intent, PlaceLimitIntent, PlaceStopLimitIntent, CancelIntent, CancelAllIntent } from './intents.js';
export type { StrategyContext, OwnOrder, OrderState, Clock } from './context.js';
export { ordersToTargets, isLiveOrder } from './target-orders.js';
export type { DesiredOrder, TargetOptions } from './target-orders.js';
export { bookTop, bookTouch, midPrice, type BookTouch } from './book-prices.js';
export { decimalParam } from './decimal-param.js';
// the market's steps, and rounding onto them as the engine will (passive prices, amounts down)
export { amountStep, priceStep, roundAmount, roundPrice, type PriceRounding } from './market-steps.js';
export type { DecimalParamOptions } from './decimal-param.js';
export type { BookTop } from './book-prices.js';
export { z } from 'zod';
export { D, Decimal, fmt, ZERO } from '../model/decimal.js';
// a strategy's own checks (params that agree with each other, a market it cannot trade) fail as config errors: exit 2, no stack
export { ConfigError } from '../model/errors.js';
// The allocation-free forms of `dmin`/`dmax` (same answers as src/model/decimal.ts's, see decimal-compare.ts), and
// `dcmp(a, b)` = `a.cmp(b)` without decimal.js's copy of `b`: for strategies that compare on every snapshot.
export { minOf as dmin, maxOf as dmax, cmp as dcmp } from '../model/decimal-compare.js';
export { minOfDifference, maxOfSum } from '../model/decimal-estimate.js';
// A Decimal's value as a double within a stated relative error (NaN when it cannot tell), and the best price of a book's
// side (or its estimate) without building its level arrays: for a per-snapshot test that decides on estimates when they
// are far from the line and on the exact Decimals otherwise (the market maker's quotesStand). Signals, never money.
export { estimate, ESTIMATE_REL_ERROR } from '../model/decimal-estimate.js';
export { bestPrice, bestPriceEstimate } from '../model/book-levels.js';
export { dadd, dsub, dmul } from '../model/decimal-small.js';
export type { DecimalInput } from '../model/decimal.js';
export type { Market } from '../model/market.js';
export type { OrderBook, BookLevel, PublicTrade, Trade } from '../model/book.js';
export type { Candle } from '../model/candle.js';
// Candles of ctx.trades$ come from ctx.candles(periodMs); indicators from the `trading-signals` package, imported by
// the strategy itself as it imports rxjs (numbers in, numbers out: signals, not money), fed by this operator.
export { indicator, closeOf, type StreamingIndicator } from './indicator.js';
export { candles, type CandleOptions } from './candles.js';
export type { Balances, AssetBalance } from '../model/balance.js';
export type { Deal, Side, StpMode, OrderKind } from '../model/order.js';
