/**
 * The fill model's tunable parameters (the `fillModel:` block of a backtest or sweep config, and what
 * `bot parity --fit` writes). They shape the OPTIMISTIC lane only: the pessimistic lane is the bound of proven
 * counterparties (a quantity decrease is a cancellation behind us, we join the back of the queue) and has nothing
 * to tune. The defaults are the model as it always was, so a config without the block replays exactly as before.
 *
 * ```yaml
 * fillModel:
 *   queueAhead: 1        # share of the quantity displayed at our price that is ahead of us on arrival
 *   decreaseTrades: 1    # share of a displayed decrease at our price that was trades (the rest cancellations)
 * ```
 */
import { z } from 'zod';
import type { Decimal } from '../model/decimal.js';
import { zNumberLike } from '../settings/decimal-schema.js';

export interface FillModelParams {
  /**
   * Share of the quantity displayed at the order's price assumed AHEAD of it when it starts resting (0..1).
   * 1 (default): we join the back of the queue; 0: the front (only in the optimistic lane).
   */
  readonly queueAhead: number;
  /**
   * Share of a decrease of the quantity displayed at the order's price that was TRADES at the front of the
   * queue, the rest being cancellations (assumed ahead of us), for recordings without every trade (0..1).
   * 1 (default): every decrease is a trade, the optimistic bound as it always was; 0: only the book moving at or
   * through the price fills. A recording that carries every trade (an importer's capture) knows which decreases
   * traded, so this share is not used there.
   */
  readonly decreaseTrades: number;
}

export const DEFAULT_FILL_MODEL: FillModelParams = Object.freeze({ queueAhead: 1, decreaseTrades: 1 });

const fraction = zNumberLike.pipe(z.number().min(0, 'expected a share between 0 and 1').max(1, 'expected a share between 0 and 1'));

/** The `fillModel:` block (strict: a misspelt key is an error, never a silent default); a key left out keeps its default. */
export const FillModelBlockSchema = z.strictObject({
  queueAhead: fraction.default(DEFAULT_FILL_MODEL.queueAhead),
  decreaseTrades: fraction.default(DEFAULT_FILL_MODEL.decreaseTrades),
});

/** The block in a backtest config: absent = the defaults. */
export const FillModelSchema = FillModelBlockSchema.default({ ...DEFAULT_FILL_MODEL });

export const isDefaultFillModel = (p: FillModelParams): boolean =>
  p.queueAhead === DEFAULT_FILL_MODEL.queueAhead && p.decreaseTrades === DEFAULT_FILL_MODEL.decreaseTrades;

/** The market's fee rates as fractions (0.001 = 0.1 %), as the data's market record states them. */
export interface FeeRates {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

const percent = (d: Decimal): string => `${d.times(100).toFixed()} %`;

/** One line every report prints: the fill model's parameters and the fee rates the run used. */
export function fillModelLine(p: FillModelParams, fees: FeeRates | undefined): string {
  const params = `queueAhead ${p.queueAhead}, decreaseTrades ${p.decreaseTrades}${isDefaultFillModel(p) ? ' (defaults)' : ''}`;
  const feeText = fees === undefined ? 'fees of the data’s market' : `fees maker ${percent(fees.maker)}, taker ${percent(fees.taker)}`;
  return `fill model: pessimistic bound; optimistic lane ${params}; ${feeText}`;
}
