import type { Decimal, Intent, OwnOrder, Side } from '../../src/strategy/index.js';
import { gridTag, levelOfOrder, type GridLevel } from './grid-levels.js';

export interface GridPlanInput {
  readonly levels: readonly GridLevel[];
  /** The empty level: buys rest below it, sells above it, and whatever rests at it is left alone. */
  readonly gap: number;
  /** The strategy's live orders (pending, open, partially filled, unknown), as on `ctx.orders$`. */
  readonly live: readonly OwnOrder[];
  /**
   * Levels not to place at for now: a place intent is in flight (not on `orders$` yet), or an order just left
   * the level without a cancel of ours and its fill has not been seen yet (re-placing it would undo the grid's move).
   */
  readonly blocked: ReadonlySet<number>;
  /** Client ids whose cancel intent was emitted and not yet seen through. */
  readonly canceling: ReadonlySet<string>;
  readonly bestBid?: Decimal | undefined;
  readonly bestAsk?: Decimal | undefined;
  /** Base amount of every order. */
  readonly amount: Decimal;
  readonly postOnly: boolean;
}

/** What the grid wants at a level: a side, or nothing (the gap). */
export function desiredSide(level: number, gap: number): Side | undefined {
  if (level === gap) return undefined;
  return level < gap ? 'buy' : 'sell';
}

/** Orders the engine may still be creating or reconciling: never cancel those blindly, never place next to them. */
function unsettled(order: OwnOrder): boolean {
  return order.state === 'pending' || order.state === 'unknown';
}

/**
 * The intents that move the live orders toward the grid, one level at a time, keeping AT MOST ONE order per
 * level at every moment: a level with any live order (even one being canceled) gets no new order; a wrong
 * order is canceled first and its replacement placed on a later call, once the cancel is through. Orders
 * that would cross the book are held back (a buy at or above the best ask, a sell at or below the best bid),
 * so a post-only order is never rejected for taking and no order is placed on the wrong side of the market.
 * Pure: the caller remembers what it emitted (`blocked`, `canceling`).
 */
export function planGrid(input: GridPlanInput): Intent[] {
  const cancels: Intent[] = [];
  const places: Intent[] = [];
  const byLevel = new Map<number, OwnOrder[]>();
  const cancel = (order: OwnOrder): void => {
    if (!unsettled(order) && !order.cancelRequested && !input.canceling.has(order.clientOrderId)) {
      cancels.push({ kind: 'cancel', clientOrderId: order.clientOrderId });
    }
  };

  for (const order of input.live) {
    const level = levelOfOrder(input.levels, order);
    if (level === undefined) {
      cancel(order); // ours (it carries the strategy's prefix) but on no level of this grid: a leftover of another config
      continue;
    }
    const list = byLevel.get(level) ?? [];
    list.push(order);
    byLevel.set(level, list);
  }

  for (const level of input.levels) {
    const want = desiredSide(level.index, input.gap);
    const orders = byLevel.get(level.index) ?? [];
    if (orders.length > 0) {
      // Self-healing only: keep one order (the wanted side if any), cancel the rest.
      const keep = orders.find((o) => want === undefined || o.side === want) ?? orders[0]!;
      for (const o of orders) if (o !== keep) cancel(o);
      if (want !== undefined && keep.side !== want) cancel(keep);
      continue;
    }
    if (want === undefined || input.blocked.has(level.index)) continue;
    if (want === 'buy' && input.bestAsk !== undefined && level.price.gte(input.bestAsk)) continue;
    if (want === 'sell' && input.bestBid !== undefined && level.price.lte(input.bestBid)) continue;
    if (input.bestAsk === undefined && input.bestBid === undefined) continue;
    places.push({
      kind: 'place-limit',
      side: want,
      price: level.price,
      amount: input.amount,
      postOnly: input.postOnly,
      tag: gridTag(level.index),
    });
  }
  return [...cancels, ...places];
}
