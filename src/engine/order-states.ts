/**
 * An order's states and the moves between them, as the tracker applies news: what counts as live, which news may move
 * which state, and the state a venue order record proves.
 */
import { ZERO } from '../model/decimal.js';
import { gt } from '../model/decimal-compare.js';
import type { Order } from '../model/order.js';
import type { OrderState } from '../strategy/context.js';
import { TERMINAL_STATES } from './journal-replay.js';

/**
 * Allowed moves; anything else (e.g. a late "open" after "filled") is ignored, so stale news never resurrects an
 * order. A live order becomes `unknown` when the venue stops showing it without a cancel of ours (absence is not
 * proof); deals are the one piece of news that may still change a finished order: deals covering the whole amount
 * make a cancelled order filled, and any deal on an order settled as never placed proves it was placed (unknown again).
 */
const NEXT: Readonly<Record<OrderState, ReadonlySet<OrderState>>> = {
  pending: new Set(['open', 'partially-filled', 'filled', 'canceled', 'rejected', 'unknown']),
  unknown: new Set(['open', 'partially-filled', 'filled', 'canceled', 'rejected']),
  open: new Set(['partially-filled', 'filled', 'canceled', 'unknown']),
  'partially-filled': new Set(['filled', 'canceled', 'unknown']),
  filled: new Set(),
  canceled: new Set(['filled']),
  rejected: new Set(['unknown', 'filled']),
};

export function canMove(from: OrderState, to: OrderState): boolean {
  return from === to ? !TERMINAL_STATES.has(from) : NEXT[from].has(to);
}

/** Live = the strategy must count it as resting or about to rest (never place twice while in flight). */
export function isLive(state: OrderState): boolean {
  return state === 'pending' || state === 'open' || state === 'partially-filled' || state === 'unknown';
}

/** State proven by a venue order record. Statuses are unreliable on the live venue, so use left/dealStock. */
export function stateFromVenue(o: Order): OrderState {
  if (o.left.isZero() && gt(o.dealStock, ZERO)) return 'filled';
  if (o.status === 'CANCELED') return 'canceled';
  return gt(o.dealStock, ZERO) ? 'partially-filled' : 'open';
}
