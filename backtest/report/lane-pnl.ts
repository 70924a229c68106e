/**
 * A lane's PnL for the report, read from the engine's own PnL ledgers (src/engine/pnl.ts, one per strategy, as the
 * lane's run summary gives their figures): the report keeps no accounting of its own.
 */
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import type { StrategyFigures } from '../../src/engine/run-summary.js';

export interface LanePnl {
  /** Realised trading PnL before fees, summed over the lane's strategies. */
  readonly realised: Decimal;
  readonly fees: Decimal;
  /** The open positions at `mark`. */
  readonly unrealised: Decimal;
  /** realised − fees + unrealised. */
  readonly net: Decimal;
  /** Signed base position, summed. */
  readonly position: Decimal;
  /** The price at which the net position breaks even (unrealised = position × (mark − avgCost)): one strategy's average cost; 10 places. */
  readonly avgCost: Decimal;
  /** Fills the ledgers counted (the venue's own list should hold as many). */
  readonly fills: number;
}

/**
 * Sums the strategies' figures and marks their positions at `mark` (the report's final mid). Each strategy's
 * unrealised PnL is position × mark − its cost basis: the engine gave it at its own last mid `engineMid`, so at `mark`
 * it is that plus position × (mark − engineMid), exactly. Without an engine mid (it never saw a book) the engine's
 * unrealised is 0 and the average cost (12 places) stands in for the basis.
 */
export function lanePnl(strategies: readonly StrategyFigures[], engineMid: Decimal | undefined, mark: Decimal): LanePnl {
  let realised = ZERO;
  let fees = ZERO;
  let unrealised = ZERO;
  let position = ZERO;
  let fills = 0;
  for (const f of strategies) {
    realised = realised.add(f.realised);
    fees = fees.add(f.fees);
    position = position.add(f.inventory);
    fills += f.fills;
    if (f.inventory.isZero()) continue;
    unrealised = unrealised.add(engineMid === undefined ? mark.sub(f.avgCost).mul(f.inventory) : f.unrealised.add(mark.sub(engineMid).mul(f.inventory)));
  }
  const avgCost = position.isZero() ? ZERO : mark.sub(unrealised.div(position)).toDecimalPlaces(10);
  return { realised, fees, unrealised, net: realised.sub(fees).add(unrealised), position, avgCost, fills };
}
