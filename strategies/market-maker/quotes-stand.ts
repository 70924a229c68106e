/**
 * The market maker's usual snapshot: the quotes it wants moved less than the refresh threshold, its resting orders
 * stand, and it sends nothing (about 19 snapshots in 20 of a replayed day). quotesStand tells such a snapshot from the
 * estimates of the touch, the factors and the orders' prices (decimal-estimate.ts in the SDK), without making the
 * mid, the quotes and ordersToTargets' lists in Decimals. It answers true only when the estimates settle it with room
 * for their error bounds: the exact computation, `ordersToTargets(desiredQuotes(...))`, then gives no intent either.
 * False means "cannot tell cheaply", never "something to do": the caller computes exactly. No decision is approximated.
 */
import {
  ESTIMATE_REL_ERROR,
  dcmp,
  estimate,
  isLiveOrder,
  type Decimal,
  type OrderBook,
  type OwnOrder,
  type Side,
  bestPriceEstimate,
} from '../../src/strategy/index.js';
import type { MarketMakerParams } from './params.js';
import { quoteConstants, type QuoteConstants, type StandingOrders } from './quote-constants.js';

const REL = ESTIMATE_REL_ERROR;
/**
 * Bound on the relative error of a quote's estimate, mid × factor: the mid of two estimates (REL), the factor's
 * estimate (REL), a few double roundings (2^-53 each) and the 60-digit roundings of the exact products (~1e-59).
 */
const QUOTE_REL = 8 * REL;

/**
 * True only when `ordersToTargets(desiredQuotes(p, bookTouch(book), inventory, priceStep), orders, opts)` (index.ts)
 * is surely empty: the book has a touch, the inventory's factors are those desiredQuotes made last, and every quote
 * wanted has exactly one live order of its tag, a limit order on its side with its full size left, whose price is
 * plainly within the refresh threshold (or a price step) of the quote, and no other live order is left to cancel.
 */
export function quotesStand(p: MarketMakerParams, book: OrderBook, inventory: Decimal, orders: readonly OwnOrder[], priceStep: Decimal): boolean {
  const c = quoteConstants(p);
  // the factors are brought up to a new inventory by desiredQuotes (the exact path runs after every fill)
  if (c.lastInventory !== inventory && (c.lastInventory === undefined || dcmp(c.lastInventory, inventory) !== 0)) return false;
  // the touch's estimates (a backtest's book reads them off its columns: no Decimal made)
  const bidF = bestPriceEstimate(book, 'bids');
  const askF = bestPriceEstimate(book, 'asks');
  if (bidF === undefined || askF === undefined) return false;
  // a touch plainly positive and not crossed (bookTouch's ask >= bid); a NaN estimate fails every test here
  if (!(bidF > 0 && askF - bidF > 2 * REL * (askF + bidF))) return false;
  const midF = (bidF + askF) * 0.5;
  const stepF = stepEstimate(priceStep);
  // the threshold's and the factors' estimates, and which sides are quoted, were worked out with the factors (an
  // inventory equal to the last one quotes the same sides)
  const tolF = c.toleranceF;
  if (!(stepF > 0 && tolF >= 0)) return false;
  const buys = c.last.buys;
  const sells = c.last.sells;
  // what the orders offer each quote, read once per list of orders (most snapshots come with the list of the last)
  const standing = standingOf(p, c, orders);
  let wanted = 0;
  for (let i = 0; i < c.levels.length; i++) {
    if (buys) {
      let want = midF * c.last.bidFactorsF[i]!;
      let err = QUOTE_REL * Math.abs(want);
      // post-only: min(quote, ask − step), whose estimate is off by at most the larger of the two errors
      if (p.postOnly) {
        const behind = askF - stepF;
        if (behind < want) want = behind;
        err = Math.max(err, 2 * REL * (askF + stepF));
      }
      // a quote not plainly positive may not be wanted at all: the exact path decides
      if (!(want - err > 0) || !stands(standing.bids[i]!, want, err, stepF, tolF)) return false;
      wanted += 1;
    }
    if (sells) {
      let want = midF * c.last.askFactorsF[i]!;
      let err = QUOTE_REL * Math.abs(want);
      // post-only: max(quote, bid + step)
      if (p.postOnly) {
        const behind = bidF + stepF;
        if (behind > want) want = behind;
        err = Math.max(err, 2 * REL * (bidF + stepF));
      }
      if (!stands(standing.asks[i]!, want, err, stepF, tolF)) return false;
      wanted += 1;
    }
  }
  // each wanted quote has its own live order (the tags differ); any live order beyond them would be cancelled
  return standing.live === wanted;
}

/** The price step's estimate, kept for the step it was made of (a strategy makes its step once). */
let lastStep: { readonly step: Decimal; readonly f: number } | undefined;
function stepEstimate(step: Decimal): number {
  if (lastStep?.step !== step) lastStep = { step, f: estimate(step) };
  return lastStep.f;
}

/** quote-constants.ts's StandingOrders of `orders`: the last list's, kept while the same list comes again. */
function standingOf(p: MarketMakerParams, c: QuoteConstants, orders: readonly OwnOrder[]): StandingOrders {
  const last = c.standing;
  if (last !== undefined && last.orders === orders) return last;
  const bids: number[] = [];
  const asks: number[] = [];
  for (const level of c.levels) {
    bids.push(priceOfStanding(orders, level.bidTag, 'buy', p.size));
    asks.push(priceOfStanding(orders, level.askTag, 'sell', p.size));
  }
  let live = 0;
  for (const o of orders) if (isLiveOrder(o) && o.cancelRequested !== true) live += 1;
  return (c.standing = { orders, bids, asks, live });
}

/**
 * The price estimate of the one live order (not being cancelled) with `tag` when it is a limit order on `side` with
 * all of `size` left (withinTolerance's equal amounts), else NaN: ordersToTargets can keep only such an order for the
 * quote without an intent.
 */
function priceOfStanding(orders: readonly OwnOrder[], tag: string, side: Side, size: Decimal): number {
  let found: OwnOrder | undefined;
  for (const o of orders) {
    if (o.tag !== tag || !isLiveOrder(o) || o.cancelRequested === true) continue;
    if (found !== undefined) return Number.NaN;
    found = o;
  }
  if (found === undefined || found.side !== side || found.kind === 'stop-limit' || dcmp(found.left, size) !== 0) return Number.NaN;
  return estimate(found.price);
}

/**
 * True when ordersToTargets surely keeps the order priced about `have` (NaN: no order may) for the quote estimated at
 * `want` ± `err`: the distance between them, with every error bound added, is below the step or the refresh tolerance.
 */
function stands(have: number, want: number, err: number, stepF: number, tolF: number): boolean {
  // |have − want| and its bound: the order price's estimate (REL, doubled for the subtraction's rounding) and the quote's
  const distance = Math.abs(have - want) + 2 * REL * Math.abs(have) + err;
  // withinTolerance: |have − want| < step, or |have − want| <= |want| × tolerance (here below the least it can be)
  return distance < stepF * (1 - 2 * REL) || distance < (Math.abs(want) - err) * tolF * (1 - 4 * REL);
}
