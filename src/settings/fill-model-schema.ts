/**
 * The `fillModel:` block of a config: the fill model's tunable parameters (src/fill-model/fill-model-params.ts says
 * what they do; `bot parity --fit` writes them). A backtest or sweep config and the paper venue (`venue: { kind:
 * paper }`) read the same block, so its schema lives here, in the settings layer the daemon config can reach; the
 * fill model itself (src/fill-model) sits a layer above and re-exports it.
 *
 * ```yaml
 * fillModel:
 *   queueAhead: 1        # share of the quantity displayed at our price that is ahead of us on arrival
 *   decreaseTrades: 1    # share of a displayed decrease at our price that was trades (the rest cancellations)
 * ```
 */
import { z } from 'zod';
import { zNumberLike } from './decimal-schema.js';

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
