/**
 * The fill model's usual step, told without taking it: a resting order on the pessimistic lane at the front of its
 * queue, with nothing counted through its price, no trade since the last snapshot, and the other side's best not at
 * or through its price. `fillStep` then fills nothing and hands back the very state it was given (fill-model.ts):
 * no proven counterparty (no trade at or through the price, no level through it), and a queue that is the ZERO
 * constant stays it under any displayed amount the snapshot vouches is not negative. The replay asks this of every
 * resting order on every snapshot (most of them, a day of the market maker: 167k of 171k steps), so the step's input
 * record, its queries of the book and its result are not made for an answer known beforehand.
 */
import { ZERO } from '../model/decimal.js';
import type { Side } from '../model/order.js';
import type { RecordedSnapshot } from '../recording/recording-format.js';
import { crossesBook } from './book-queries.js';
import type { FillAssumption, QueueState, TickTrade } from './fill-model.js';

/**
 * True when a step of the order to `after` (no trade among `trades`) would be quiet, given the snapshot and trades
 * allow quiet steps at all (`quietSteps`): no fill, and `fillStep` returns `state` itself.
 */
export function isQuietStep(side: Side, priceTicks: number, state: QueueState, after: RecordedSnapshot): boolean {
  return state.queueAhead === ZERO && state.throughSeen === ZERO && !crossesBook(after, side, priceTicks);
}

/**
 * Whether a step to `after` with these trades may be quiet for any order: the pessimistic bound (the optimistic one
 * fills on a decrease at the price), no trade, and amounts the snapshot vouches are not negative (the queue's cap is
 * then not asked).
 */
export function quietSteps(assumption: FillAssumption, after: RecordedSnapshot, trades: readonly TickTrade[]): boolean {
  return assumption === 'pessimistic' && trades.length === 0 && after.nonNegativeAmounts;
}
