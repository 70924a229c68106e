import type { SimExchange } from './exchange.js';

/**
 * Background order flow that makes a simulated market look alive. The HTTP layer calls `step` on a
 * timer (period: `flow.stepMs` of the config) with the current time; a flow must be deterministic given
 * its seed and the sequence of `nowMs` values it is stepped with. The synthetic flow implements it; a
 * flow replaying a recorded book can plug in behind the same interface.
 */
export interface MarketFlow {
  step(exchange: SimExchange, nowMs: number): void;
}
