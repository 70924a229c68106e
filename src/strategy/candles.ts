import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { Trade } from '../model/book.js';
import type { Candle } from '../model/candle.js';
import { ZERO, type Decimal } from '../model/decimal.js';

export interface CandleOptions {
  /** Closes candles when no later trade does (see `candles`); the engine's, virtual in tests and backtests. */
  readonly scheduler: SchedulerLike;
  /**
   * How long after a period's end its candle waits for trades still on their way (polled trades arrive a poll
   * period or more after they were made), ms. A trade older than the candles already given is dropped, so this
   * must exceed the delivery delay. Default 3000.
   */
  readonly closeAfterMs?: number | undefined;
}

/** The candle being built. */
interface Open {
  start: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  value: Decimal;
  trades: number;
  market: string;
}

/**
 * OHLCV candles of `periodMs` from a stream of trades in time order (a market's `trades$`). A trade belongs to the
 * period its own time falls in, so the candles depend on the trades only, not on when they arrive: live, from a
 * recording and in a test, the same trades give the same candles. A period's candle is given as soon as a trade of a
 * later period arrives, or `closeAfterMs` after the period's end on the scheduler's clock, whichever comes first;
 * after the first trade, a period without trades gives a flat candle at the last close. A trade older than the
 * candles already given is dropped. When the trades complete, the candle being built is given as it is.
 */
export function candles(periodMs: number, options: CandleOptions): OperatorFunction<Trade, Candle> {
  if (!(Number.isInteger(periodMs) && periodMs > 0)) throw new RangeError(`candles: periodMs must be a whole number of ms > 0, got ${periodMs}`);
  const { scheduler } = options;
  const closeAfterMs = options.closeAfterMs ?? 3000;
  if (!(closeAfterMs >= 0)) throw new RangeError(`candles: closeAfterMs must be >= 0, got ${closeAfterMs}`);
  return (source) =>
    new Observable<Candle>((subscriber) => {
      /** Start of the next period to give a candle for; undefined before the first trade. */
      let next: number | undefined;
      let current: Open | undefined;
      let last: Candle | undefined;
      let timer: Subscription | undefined;

      const give = (c: Candle): void => {
        last = c;
        subscriber.next(c);
      };
      /** Gives the candle of period `next` (built, or flat) and moves on to the following period. */
      const closeNext = (): void => {
        if (current !== undefined && current.start === next) {
          const { market, start, open, high, low, close, volume, value, trades } = current;
          current = undefined;
          give({ market, start, periodMs, open, high, low, close, volume, value, trades });
        } else if (last !== undefined) {
          const c = last.close;
          give({ market: last.market, start: next!, periodMs, open: c, high: c, low: c, close: c, volume: ZERO, value: ZERO, trades: 0 });
        }
        next! += periodMs;
      };
      const arm = (): void => {
        timer?.unsubscribe();
        timer = scheduler.schedule(onTimer, Math.max(0, next! + periodMs + closeAfterMs - scheduler.now()));
      };
      const onTimer = (): void => {
        timer = undefined;
        while (next! + periodMs + closeAfterMs <= scheduler.now()) closeNext();
        arm();
      };

      const sub = source.subscribe({
        next(t) {
          const start = t.time - (((t.time % periodMs) + periodMs) % periodMs);
          const before = next;
          if (next === undefined) next = start;
          else if (start < next) return; // late: its period's candle was given
          // a trade of a later period: the periods before it are complete (the trades come in time order)
          while (next < start) closeNext();
          if (current === undefined) {
            current = {
              market: t.market,
              start,
              open: t.price,
              high: t.price,
              low: t.price,
              close: t.price,
              volume: t.amount,
              value: t.price.mul(t.amount),
              trades: 1,
            };
          } else {
            if (t.price.gt(current.high)) current.high = t.price;
            if (t.price.lt(current.low)) current.low = t.price;
            current.close = t.price;
            current.volume = current.volume.plus(t.amount);
            current.value = current.value.plus(t.price.mul(t.amount));
            current.trades += 1;
          }
          if (timer === undefined || next !== before) arm();
        },
        error(error: unknown) {
          subscriber.error(error);
        },
        complete() {
          if (current !== undefined) closeNext();
          subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        sub.unsubscribe();
      };
    });
}
