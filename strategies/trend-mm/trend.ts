import { EMA } from 'trading-signals';
import { indicator, type Candle } from '../../src/strategy/index.js';
import type { OperatorFunction } from 'rxjs';

/**
 * The trend of candles: (fast EMA − slow EMA) / slow EMA of their closes, once the slow one is stable (trading-signals
 * computes on numbers: this is a signal, not money). Positive when prices rise, negative when they fall.
 */
export function trendOf(fast: number, slow: number): OperatorFunction<Candle, number> {
  return indicator(() => {
    const f = new EMA(fast);
    const s = new EMA(slow);
    return {
      add(close: number): number | null {
        const a = f.add(close);
        const b = s.add(close);
        return a === null || b === null || !s.isStable ? null : (a - b) / b;
      },
      get isStable() {
        return s.isStable;
      },
    };
  });
}
