import { D, ZERO, type Decimal } from '../model/decimal.js';
import { cmp, gt, lt, lteProduct } from '../model/decimal-compare.js';
import { estimate, plainSign } from '../model/decimal-estimate.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import type { OrderState, OwnOrder } from './context.js';
import { cancel, placeStopLimit, type Intent, type PlaceLimitIntent } from './intents.js';
import type { Writable } from '../model/writable.js';

/** An order a strategy wants resting. With `activationPrice` it is a stop-limit order, otherwise a limit order. */
export interface DesiredOrder {
  readonly side: Side;
  readonly price: Decimal;
  /** Base amount. A non-positive amount means "no order" and is skipped. */
  readonly amount: Decimal;
  /** When given, only a live order with this exact tag can stand for this one. */
  readonly tag?: string;
  /** Limit orders only. */
  readonly postOnly?: boolean;
  /** Makes it a stop-limit order. */
  readonly activationPrice?: Decimal;
}

export interface TargetOptions {
  /**
   * Largest relative price difference, as a fraction of the desired price, for a live order to stand for a
   * desired one (also applied to the activation price). Default 0. E.g. `D('0.001')`: a quote 0.1 % away is kept,
   * which saves rate budget and queue position.
   */
  readonly priceTolerance?: Decimal;
  /**
   * Largest relative difference between a live order's REMAINING amount (`left`) and the desired amount, as a
   * fraction of the desired amount. Default 0: a partially filled order is replaced by a full-size one.
   */
  readonly amountTolerance?: Decimal;
  /**
   * The market the orders live in. When given, a difference smaller than one price step (resp. amount step)
   * always matches: the engine quantizes every intent, so a live order differs from the unquantized wish by
   * less than a step, and without this the wish would be re-placed on every tick.
   */
  readonly market?: Pick<Market, 'moneyPrec' | 'stockPrec'>;
}

/** States in which an order is (or may be) on the book: pending and unknown count, so nothing is placed twice. */
const LIVE_STATES: ReadonlySet<OrderState> = new Set<OrderState>(['pending', 'open', 'partially-filled', 'unknown']);

/** True when `order` is (or may be) resting: an order in flight counts as resting. */
export function isLiveOrder(order: OwnOrder): boolean {
  return LIVE_STATES.has(order.state);
}

/** 10^-prec, cached (runs on every book snapshot of every quoting strategy). */
const steps = new Map<number, Decimal>();
function stepOf(prec: number): Decimal {
  let step = steps.get(prec);
  if (step === undefined) {
    step = D(10).pow(-prec);
    steps.set(prec, step);
  }
  return step;
}

/** |x| without a copy when x is not negative (abs() always allocates; this runs on every snapshot). */
const absOf = (x: Decimal): Decimal => (x.isNegative() ? x.neg() : x);

/**
 * Whether `have` may stand for `want`: |have − want| < step (when step > 0), or |have − want| <= |want| × tol. Exported
 * for its property test; strategies use it through ordersToTargets.
 */
export function withinTolerance(have: Decimal, want: Decimal, tol: Decimal, step: Decimal): boolean {
  // Equal values (the usual case for amounts) are within any non-negative tolerance: skip the arithmetic.
  if (cmp(have, want) === 0 && !tol.isNegative()) return true;
  // A quote a few ticks from its wish is far inside (or outside) the tolerance: the estimates settle it (exactly)
  const settled = withinByEstimate(have, want, tol, step);
  if (settled !== undefined) return settled;
  const diff = absOf(have.minus(want));
  // The step test first: the same `or`, but a comparison is much cheaper than the product (which lteProduct also
  // skips when the exponents settle it).
  return (gt(step, ZERO) && lt(diff, step)) || lteProduct(diff, want, tol);
}

/**
 * withinTolerance decided on the values' estimates (decimal-estimate.ts) when they are further from each boundary than
 * their error bounds: true or false, the exact answer. Undefined when one is too close to tell (or for a tolerance
 * that is not positive, a negative step, a value not estimated): the exact arithmetic decides.
 */
function withinByEstimate(have: Decimal, want: Decimal, tol: Decimal, step: Decimal): boolean | undefined {
  const hf = estimate(have);
  const wf = estimate(want);
  const tf = estimate(tol);
  const sf = estimate(step);
  if (!(tf > 0) || !(sf >= 0) || Number.isNaN(hf) || Number.isNaN(wf)) return undefined;
  // |have − want| against the step, then against |want| × tol: two error terms (the estimates', the rounding) for the
  // difference, three for the product's
  const df = Math.abs(hf - wf);
  const dSize = Math.abs(hf) + Math.abs(wf);
  if (sf > 0) {
    const s = plainSign(sf - df, dSize + sf, 2);
    if (s === 1) return true;
    if (s === 0) return undefined;
  }
  const pf = Math.abs(wf) * tf;
  const p = plainSign(pf - df, dSize + pf, 3);
  return p === 0 ? undefined : p === 1;
}

function matchesDesired(o: OwnOrder, d: DesiredOrder, priceTol: Decimal, amountTol: Decimal, priceStep: Decimal, amountStep: Decimal): boolean {
  if (o.side !== d.side) return false;
  if ((o.kind === 'stop-limit') !== (d.activationPrice !== undefined)) return false;
  if (d.tag !== undefined && o.tag !== d.tag) return false;
  if (!withinTolerance(o.price, d.price, priceTol, priceStep)) return false;
  if (!withinTolerance(o.left, d.amount, amountTol, amountStep)) return false;
  if (d.activationPrice !== undefined) {
    if (o.activationPrice === undefined || !withinTolerance(o.activationPrice, d.activationPrice, priceTol, priceStep)) return false;
  }
  return true;
}

/**
 * Turns "the orders I want resting" into the intents that get there: every live order that matches a desired one
 * (same side and type, same tag when the desired one has a tag, price and remaining amount within tolerance) is
 * kept; every other live order is cancelled; every desired order without a match is placed. Cancels come first,
 * then places, in the order of `desired`. Pure and idempotent: once the intents are applied, calling it again
 * yields no intents.
 *
 * Orders whose cancel is already in flight (`cancelRequested`) are neither matched nor cancelled again.
 * Among candidate live orders the closest in price wins, so a small drift never swaps two quotes. Desired orders
 * closer to each other than the tolerance are matched greedily in the order given; give them tags to be exact.
 */
export function ordersToTargets(desired: readonly DesiredOrder[], live: readonly OwnOrder[], opts: TargetOptions = {}): Intent[] {
  const priceTol = opts.priceTolerance ?? ZERO;
  const amountTol = opts.amountTolerance ?? ZERO;
  // Steps are cached per precision: 10^-prec at 60 significant digits costs more than the rest of this function.
  const priceStep = opts.market ? stepOf(opts.market.moneyPrec) : ZERO;
  const amountStep = opts.market ? stepOf(opts.market.stockPrec) : ZERO;

  const candidates = live.filter((o) => isLiveOrder(o) && !o.cancelRequested);
  const kept = new Set<OwnOrder>();
  const toPlace: DesiredOrder[] = [];
  for (const d of desired) {
    if (!gt(d.amount, ZERO)) continue;
    let best: OwnOrder | undefined;
    for (const o of candidates) {
      if (kept.has(o) || !matchesDesired(o, d, priceTol, amountTol, priceStep, amountStep)) continue;
      if (!best || lt(o.price.minus(d.price).abs(), best.price.minus(d.price).abs())) best = o;
    }
    if (best) kept.add(best);
    else toPlace.push(d);
  }

  const intents: Intent[] = [];
  for (const o of candidates) if (!kept.has(o)) intents.push(cancel(o.clientOrderId));
  for (const d of toPlace)
    intents.push(
      d.activationPrice === undefined
        ? limitIntent(d)
        : placeStopLimit({
            side: d.side,
            price: d.price,
            amount: d.amount,
            activationPrice: d.activationPrice,
            ...(d.tag === undefined ? {} : { tag: d.tag }),
          }),
    );
  return intents;
}

/**
 * `placeLimit({ side, price, amount, tag?, postOnly? })`, the same intent with the same keys in the same order, built
 * by property stores instead of two spreads (V8's slow path), for every place a quoting strategy makes.
 */
function limitIntent(d: DesiredOrder): PlaceLimitIntent {
  const i: Writable<PlaceLimitIntent> = { kind: 'place-limit', side: d.side, price: d.price, amount: d.amount };
  if (d.tag !== undefined) i.tag = d.tag;
  if (d.postOnly !== undefined) i.postOnly = d.postOnly;
  return i;
}
