import { Decimal, type Intent, type Market, type OwnOrder, type Side } from '../../src/strategy/index.js';
import type { TwapParams } from './params.js';

const TAG_PREFIX = 'twap-';

/** Tag of the order of slice `k` (1-based), so a later evaluation knows which slice an order belongs to. */
export function sliceTag(k: number): string {
  return `${TAG_PREFIX}${k}`;
}

export function sliceOfTag(tag: string | undefined): number | undefined {
  if (!tag?.startsWith(TAG_PREFIX)) return undefined;
  const text = tag.slice(TAG_PREFIX.length);
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * The slice due at `now` (1-based): slice k starts at (k − 1) × durationMs / slices. Not capped at `slices`: after
 * the duration, what is left is re-priced every slice interval until done.
 */
export function currentSlice(params: Pick<TwapParams, 'durationMs' | 'slices'>, startedAt: number, now: number): number {
  const sliceMs = params.durationMs / params.slices;
  return Math.floor(Math.max(0, now - startedAt) / sliceMs) + 1;
}

/**
 * Price of a slice: `improveTicks` steps inside the touch on our side (a buy above the best bid), but strictly
 * behind the other side (never crosses, so never takes), and never beyond `limit`. undefined without a book.
 */
export function slicePrice(market: Market, side: Side, improveTicks: number, limit: Decimal, bid?: Decimal, ask?: Decimal): Decimal | undefined {
  const tick = new Decimal(10).pow(-market.moneyPrec);
  let price: Decimal;
  if (side === 'buy') {
    if (bid === undefined && ask === undefined) return undefined;
    price = bid ? bid.plus(tick.times(improveTicks)) : ask!.minus(tick);
    if (ask && price.gte(ask)) price = Decimal.max(bid ?? ask.minus(tick), ask.minus(tick));
    price = Decimal.min(price, limit).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_DOWN);
  } else {
    if (bid === undefined && ask === undefined) return undefined;
    price = ask ? ask.minus(tick.times(improveTicks)) : bid!.plus(tick);
    if (bid && price.lte(bid)) price = Decimal.min(ask ?? bid.plus(tick), bid.plus(tick));
    price = Decimal.max(price, limit).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_UP);
  }
  return price.gt(0) ? price : undefined;
}

/** True when the market's minimums allow an order of `amount` at `price`. */
export function tradeable(market: Market, amount: Decimal, price: Decimal): boolean {
  return (
    amount.gt(0) &&
    amount.gte(market.minAmount) &&
    amount.times(price).gte(market.minTotal) &&
    (market.maxTotal === null || amount.times(price).lte(market.maxTotal))
  );
}

export interface TwapInput {
  readonly market: Market;
  readonly params: TwapParams;
  readonly startedAt: number;
  readonly now: number;
  /** Base amount filled so far (from `fills$`). */
  readonly filled: Decimal;
  readonly limit: Decimal;
  readonly bid?: Decimal;
  readonly ask?: Decimal;
  readonly live: readonly OwnOrder[];
  readonly canceling: ReadonlySet<string>;
  /** A place intent is in flight and not on `orders$` yet. */
  readonly placing: boolean;
  /** When (ms) the last order left `orders$`; its fills may still be on their way. */
  readonly lastGoneAt?: number;
}

export type TwapDecision =
  | { readonly kind: 'wait'; readonly slice: number }
  | { readonly kind: 'act'; readonly slice: number; readonly intents: Intent[] }
  | { readonly kind: 'done'; readonly slice: number; readonly dust: Decimal };

/**
 * One evaluation. Slice k aims at k/slices of the total done; the order of an earlier slice is canceled and its
 * unfilled remainder carried into the next order (re-priced at the touch). A slice too small for the market's
 * minimums is carried forward too. One order at a time: a new one is sized only after the previous one has left
 * `orders$` and `settleMs` passed, so fills still in flight are never traded twice.
 */
export function planTwap(input: TwapInput): TwapDecision {
  const { market, params, now } = input;
  const slice = currentSlice(params, input.startedAt, now);
  if (input.placing || input.live.some((o) => o.state === 'pending' || o.state === 'unknown')) return { kind: 'wait', slice };
  const canceling = input.live.filter((o) => o.cancelRequested || input.canceling.has(o.clientOrderId));
  if (canceling.length > 0) return { kind: 'wait', slice };
  if (input.live.length > 0) {
    const stale = input.live.filter((o) => (sliceOfTag(o.tag) ?? 0) < slice);
    if (stale.length === 0) return { kind: 'wait', slice };
    return { kind: 'act', slice, intents: stale.map((o) => ({ kind: 'cancel', clientOrderId: o.clientOrderId })) };
  }
  if (input.lastGoneAt !== undefined && now - input.lastGoneAt < params.settleMs) return { kind: 'wait', slice };

  const remaining = params.total.minus(input.filled);
  const price = slicePrice(market, params.side, params.improveTicks, input.limit, input.bid, input.ask);
  const remainingOnStep = remaining.toDecimalPlaces(market.stockPrec, Decimal.ROUND_DOWN);
  if (!remaining.gt(0)) return { kind: 'done', slice, dust: new Decimal(0) };
  if (price === undefined) return { kind: 'wait', slice };
  if (!tradeable(market, remainingOnStep, price)) return { kind: 'done', slice, dust: remaining };

  const due = params.total.times(Math.min(slice, params.slices)).div(params.slices).minus(input.filled);
  const amount = Decimal.min(due, remaining).toDecimalPlaces(market.stockPrec, Decimal.ROUND_DOWN);
  if (!tradeable(market, amount, price)) {
    // Too small to trade now: carry forward. On the last slice, trade everything left (it is tradeable, see above).
    if (slice < params.slices) return { kind: 'wait', slice };
    return { kind: 'act', slice, intents: [place(params.side, price, remainingOnStep, slice)] };
  }
  return { kind: 'act', slice, intents: [place(params.side, price, amount, slice)] };
}

function place(side: Side, price: Decimal, amount: Decimal, slice: number): Intent {
  return { kind: 'place-limit', side, price, amount, tag: sliceTag(slice) };
}
