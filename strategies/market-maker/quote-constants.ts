import { D, dcmp, dmax, dmin, estimate, type Decimal, type OwnOrder } from '../../src/strategy/index.js';
import type { MarketMakerParams } from './params.js';

/** What desiredQuotes derives from the params alone, computed once per params object (it runs on every snapshot). */
export interface QuoteConstants {
  readonly levels: ReadonlyArray<{ readonly bidFactor: Decimal; readonly askFactor: Decimal; readonly bidTag: string; readonly askTag: string }>;
  readonly minInventory: Decimal;
  /** The last inventory seen and its centre factor 1 − skew × ratio (inventory changes only on fills). */
  lastInventory: Decimal | undefined;
  lastCentreFactor: Decimal;
  /** Per level, centre factor × bid factor and × ask factor (see desiredQuotes), and the most digits of such a pair. */
  lastBidFactors: Decimal[];
  lastAskFactors: Decimal[];
  lastFactorDigits: number;
  /**
   * What quotesStand reads of the same values on every snapshot, worked out with them: the factors' estimates, whether
   * the last inventory is below the maximum (bids quoted) and above its negative (asks quoted), and the refresh
   * threshold's estimate.
   */
  lastBidFactorsF: number[];
  lastAskFactorsF: number[];
  lastBuys: boolean;
  lastSells: boolean;
  readonly toleranceF: number;
  /** quotesStand's reading of the last orders list it was given (a function of the list and the params alone). */
  standing: StandingOrders | undefined;
}

/**
 * What a list of orders offers the quotes, per level and side: the price estimate of the one order that may stand for
 * the quote (NaN when none may, so that no distance to it is below anything), and how many live orders are not being
 * cancelled. The engine sends a new list of immutable views on every change and never alters a list once sent, so the
 * same list (by identity) has the same reading: most snapshots come with the list of the snapshot before.
 */
export interface StandingOrders {
  readonly orders: readonly OwnOrder[];
  readonly bids: readonly number[];
  readonly asks: readonly number[];
  readonly live: number;
}

export const ONE = D(1);
const MINUS_ONE = D(-1);

const constantsOf = new WeakMap<MarketMakerParams, QuoteConstants>();

export function quoteConstants(p: MarketMakerParams): QuoteConstants {
  let c = constantsOf.get(p);
  if (c === undefined) {
    const half = p.spread.div(2);
    const levels = [];
    for (let i = 0; i < p.levels; i++) {
      const offset = half.plus(p.levelSpacing.times(i));
      levels.push({ bidFactor: ONE.minus(offset), askFactor: ONE.plus(offset), bidTag: `bid-${i}`, askTag: `ask-${i}` });
    }
    c = {
      levels,
      minInventory: p.maxInventory.neg(),
      lastInventory: undefined,
      lastCentreFactor: ONE,
      lastBidFactors: [],
      lastAskFactors: [],
      lastFactorDigits: Infinity,
      lastBidFactorsF: [],
      lastAskFactorsF: [],
      lastBuys: false,
      lastSells: false,
      toleranceF: estimate(p.refreshThreshold),
      standing: undefined,
    };
    constantsOf.set(p, c);
  }
  return c;
}

/** Brings the inventory-derived factors of `c` up to `inventory` (a no-op while it is unchanged: it changes only on fills). */
export function followInventory(c: QuoteConstants, p: MarketMakerParams, inventory: Decimal): void {
  if (c.lastInventory !== undefined && dcmp(c.lastInventory, inventory) === 0) return;
  const ratio = dmax(MINUS_ONE, dmin(ONE, inventory.div(p.maxInventory)));
  const centreFactor = ONE.minus(p.inventorySkew.times(ratio));
  c.lastCentreFactor = centreFactor;
  c.lastInventory = inventory;
  c.lastBidFactors = c.levels.map((l) => centreFactor.times(l.bidFactor));
  c.lastAskFactors = c.levels.map((l) => centreFactor.times(l.askFactor));
  const digits = centreFactor.precision();
  c.lastFactorDigits = Math.max(...c.levels.map((l) => digits + Math.max(l.bidFactor.precision(), l.askFactor.precision())));
  c.lastBidFactorsF = c.lastBidFactors.map(estimate);
  c.lastAskFactorsF = c.lastAskFactors.map(estimate);
  c.lastBuys = dcmp(inventory, p.maxInventory) < 0;
  c.lastSells = dcmp(inventory, c.minInventory) > 0;
}
