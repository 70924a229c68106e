import { D, dcmp, dmax, dmin, estimate, type Decimal, type OwnOrder } from '../../src/strategy/index.js';
import type { MarketMakerParams } from './params.js';

/** What desiredQuotes derives from the params alone, computed once per params object (it runs on every snapshot). */
export interface QuoteConstants {
  readonly levels: ReadonlyArray<{ readonly bidFactor: Decimal; readonly askFactor: Decimal; readonly bidTag: string; readonly askTag: string }>;
  readonly minInventory: Decimal;
  /** The last inventory seen (inventory changes only on fills) and its factors (see InventoryFactors). */
  lastInventory: Decimal | undefined;
  last: InventoryFactors;
  readonly toleranceF: number;
  /** The factors of each inventory seen (see followInventory), by the inventory's parts. */
  readonly factorsByInventory: Map<string, InventoryFactors>;
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
      last: NO_FACTORS,
      toleranceF: estimate(p.refreshThreshold),
      factorsByInventory: new Map(),
      standing: undefined,
    };
    constantsOf.set(p, c);
  }
  return c;
}

/** What desiredQuotes and quotesStand derive from one inventory (see followInventory). */
export interface InventoryFactors {
  /** 1 − skew × ratio. */
  readonly centreFactor: Decimal;
  /** Per level, centre factor × bid factor and × ask factor (see desiredQuotes), and the most digits of such a pair. */
  readonly bidFactors: Decimal[];
  readonly askFactors: Decimal[];
  readonly factorDigits: number;
  /**
   * What quotesStand reads of the same values on every snapshot: the factors' estimates, and whether the inventory is
   * below the maximum (bids quoted) and above its negative (asks quoted).
   */
  readonly bidFactorsF: number[];
  readonly askFactorsF: number[];
  readonly buys: boolean;
  readonly sells: boolean;
}

/** Before any inventory was seen. */
const NO_FACTORS: InventoryFactors = {
  centreFactor: ONE,
  bidFactors: [],
  askFactors: [],
  factorDigits: Infinity,
  bidFactorsF: [],
  askFactorsF: [],
  buys: false,
  sells: false,
};

/** Inventories whose factors are kept per params (a day's replay sees a handful: whole quote sizes around zero). */
const KEPT_INVENTORIES = 64;

/**
 * Brings the inventory-derived factors of `c` up to `inventory` (a no-op while it is unchanged: it changes only on
 * fills). The inventory comes back to the values it had (it moves by a quote's size and back), so each value's
 * factors are made once (a division and several products at decimal.js's 60 digits) and kept by the value's parts.
 */
export function followInventory(c: QuoteConstants, p: MarketMakerParams, inventory: Decimal): void {
  if (c.lastInventory !== undefined && (c.lastInventory === inventory || dcmp(c.lastInventory, inventory) === 0)) return;
  const key = partsKey(inventory);
  let f = c.factorsByInventory.get(key);
  if (f === undefined) {
    f = inventoryFactors(c, p, inventory);
    if (c.factorsByInventory.size >= KEPT_INVENTORIES) c.factorsByInventory.clear();
    c.factorsByInventory.set(key, f);
  }
  c.lastInventory = inventory;
  c.last = f;
}

/**
 * A Decimal's whole state as a key: sign, exponent and digit words (decimal.js's documented parts). Every operation
 * below reads nothing else of the inventory, so equal keys give the very same factors (-0 and 0 differ: both kept).
 */
function partsKey(x: Decimal): string {
  const p = x as unknown as { readonly s: number; readonly e: number; readonly d: readonly number[] | null };
  return `${p.s} ${p.e} ${p.d === null ? '-' : p.d.join(',')}`;
}

function inventoryFactors(c: QuoteConstants, p: MarketMakerParams, inventory: Decimal): InventoryFactors {
  const ratio = dmax(MINUS_ONE, dmin(ONE, inventory.div(p.maxInventory)));
  const centreFactor = ONE.minus(p.inventorySkew.times(ratio));
  const bidFactors = c.levels.map((l) => centreFactor.times(l.bidFactor));
  const askFactors = c.levels.map((l) => centreFactor.times(l.askFactor));
  const digits = centreFactor.precision();
  return {
    centreFactor,
    bidFactors,
    askFactors,
    factorDigits: Math.max(...c.levels.map((l) => digits + Math.max(l.bidFactor.precision(), l.askFactor.precision()))),
    bidFactorsF: bidFactors.map(estimate),
    askFactorsF: askFactors.map(estimate),
    buys: dcmp(inventory, p.maxInventory) < 0,
    sells: dcmp(inventory, c.minInventory) > 0,
  };
}
