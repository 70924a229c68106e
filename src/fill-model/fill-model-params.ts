/**
 * The fill model's tunable parameters (the `fillModel:` block of a backtest or sweep config, and what
 * `bot parity --fit` writes). They shape the OPTIMISTIC lane only: the pessimistic lane is the bound of proven
 * counterparties (a quantity decrease is a cancellation behind us, we join the back of the queue) and has nothing
 * to tune. The defaults are the model as it always was, so a config without the block replays exactly as before.
 * The paper venue reads the same block for its optimistic assumption (src/sim/paper-fill-model.ts).
 *
 * ```yaml
 * fillModel:
 *   queueAhead: 1        # share of the quantity displayed at our price that is ahead of us on arrival
 *   decreaseTrades: 1    # share of a displayed decrease at our price that was trades (the rest cancellations)
 * ```
 */
import { D, type Decimal } from '../model/decimal.js';
import { DEFAULT_FILL_MODEL, type FillModelParams } from '../settings/fill-model-schema.js';
import type { FillAssumption } from './fill-model.js';

// The block's schema is in the settings layer, where the daemon config (the paper venue's `fillModel:`) can reach it.
export { DEFAULT_FILL_MODEL, FillModelBlockSchema, FillModelSchema, type FillModelParams } from '../settings/fill-model-schema.js';

/**
 * The parameters as the model's steps take them (`initialQueue`'s queueAhead, `fillStep`'s decreaseTrades): Decimals,
 * undefined where the model as it always was applies (a share of 1, the pessimistic lane, no block). The backtest's
 * virtual exchange and the paper venue make them here, so the two fill alike.
 */
export function modelShares(
  assumption: FillAssumption,
  p: FillModelParams | undefined,
): { readonly queueAhead: Decimal | undefined; readonly decreaseTrades: Decimal | undefined } {
  const share = (x: number | undefined): Decimal | undefined => (assumption !== 'optimistic' || x === undefined || x === 1 ? undefined : D(String(x)));
  return { queueAhead: share(p?.queueAhead), decreaseTrades: share(p?.decreaseTrades) };
}

export const isDefaultFillModel = (p: FillModelParams): boolean =>
  p.queueAhead === DEFAULT_FILL_MODEL.queueAhead && p.decreaseTrades === DEFAULT_FILL_MODEL.decreaseTrades;

/** The market's fee rates as fractions (0.001 = 0.1 %), as the data's market record states them. */
export interface FeeRates {
  readonly maker: Decimal;
  readonly taker: Decimal;
}

const percent = (d: Decimal): string => `${d.times(100).toFixed()} %`;
const paramsText = (p: FillModelParams): string =>
  `queueAhead ${p.queueAhead}, decreaseTrades ${p.decreaseTrades}${isDefaultFillModel(p) ? ' (defaults)' : ''}`;
const feesText = (fees: FeeRates | undefined, otherwise: string): string =>
  fees === undefined ? otherwise : `fees maker ${percent(fees.maker)}, taker ${percent(fees.taker)}`;

/** One line every report prints: the fill model's parameters and the fee rates the run used. */
export function fillModelLine(p: FillModelParams, fees: FeeRates | undefined): string {
  return `fill model: pessimistic bound; optimistic lane ${paramsText(p)}; ${feesText(fees, 'fees of the data’s market')}`;
}

/**
 * The paper venue's line (its start log, its venue label): the one assumption it fills by, in fillModelLine's words.
 * The parameters shape the optimistic bound only, and of them only queueAhead there: the paper venue polls the
 * upstream's trades, so it knows which decreases traded and decreaseTrades is not used (as on a recording with
 * trades). `fees` undefined: each market's own (the start log lists them).
 */
export function paperFillModelLine(assumption: FillAssumption, p: FillModelParams, fees: FeeRates | undefined): string {
  const queue = `queueAhead ${p.queueAhead}${p.queueAhead === DEFAULT_FILL_MODEL.queueAhead ? ' (default)' : ''}`;
  const bound = assumption === 'optimistic' ? `optimistic bound, ${queue}` : 'pessimistic bound';
  return `fill model: ${bound}, with the upstream’s polled trades; ${feesText(fees, 'fees of each market')}`;
}
