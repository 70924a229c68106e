import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { Candle } from '../model/candle.js';

/**
 * What `indicator` needs of one: the streaming interface of the `trading-signals` package (`new EMA(20)`, `new
 * RSI(14)`, `new BollingerBands(20, 2)`, ...), which computes on JS numbers.
 */
export interface StreamingIndicator<I, R> {
  add(input: I): R | null;
  readonly isStable: boolean;
}

/** A candle's close as a number: an indicator's usual input. */
export const closeOf = (c: Candle): number => c.close.toNumber();

/**
 * Feeds each candle to a fresh indicator (made by `create` for each subscriber) and gives its result once it is
 * stable, e.g. `ctx.candles(60_000).pipe(indicator(() => new EMA(20)))`. Indicators are signals, not money: they
 * compute on numbers (`input` turns a candle into one; default its close), and a strategy turns what it decides from
 * them into Decimal prices and amounts (`roundPrice`, `roundAmount`).
 */
export function indicator<R, I = number>(create: () => StreamingIndicator<I, R>, input?: (c: Candle) => I): OperatorFunction<Candle, R> {
  const read = input ?? (closeOf as unknown as (c: Candle) => I);
  return (candles) =>
    defer(() => {
      const ind = create();
      return candles.pipe(
        map((c) => ind.add(read(c))),
        filter((r): r is R => r !== null && ind.isStable),
      );
    });
}
