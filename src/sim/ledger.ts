import type { AssetBalance, Balances, MainBalances } from '../model/balance.js';
import { type Decimal, ZERO } from '../model/decimal.js';

/** One account's holding of one asset. Mutable on purpose: matching updates it in place. */
export interface Cell {
  /** Trade balance free to use. */
  available: Decimal;
  /** Trade balance locked by open orders. */
  freeze: Decimal;
  /** Main balance (codes spend it). */
  main: Decimal;
}

/**
 * Every unit of every asset the exchange holds, exactly (Decimal, no float anywhere). Funds only move
 * between cells, into the fee pool (fees charged by matching) or into the code pool (created codes):
 * `totals(asset)` is therefore constant over the life of the exchange, which the property tests check.
 */
export class Ledger {
  private readonly cells = new Map<string, Map<string, Cell>>();
  private readonly fees = new Map<string, Decimal>();
  private readonly codes = new Map<string, Decimal>();
  private readonly assetSet: Set<string>;

  constructor(assets: Iterable<string>) {
    this.assetSet = new Set(assets);
  }

  get assets(): ReadonlySet<string> {
    return this.assetSet;
  }

  openAccount(accountId: string, trade: Readonly<Record<string, Decimal>>, main: Readonly<Record<string, Decimal>>): void {
    const byAsset = new Map<string, Cell>();
    this.cells.set(accountId, byAsset);
    for (const asset of [...Object.keys(trade), ...Object.keys(main)]) this.assetSet.add(asset);
    for (const asset of this.assetSet) {
      byAsset.set(asset, { available: trade[asset] ?? ZERO, freeze: ZERO, main: main[asset] ?? ZERO });
    }
  }

  /** The account's cell for an asset (created empty for an asset the account never held). */
  cell(accountId: string, asset: string): Cell {
    const byAsset = this.cells.get(accountId);
    if (byAsset === undefined) throw new Error(`ledger: unknown account ${accountId}`);
    let c = byAsset.get(asset);
    if (c === undefined) {
      c = { available: ZERO, freeze: ZERO, main: ZERO };
      byAsset.set(asset, c);
      this.assetSet.add(asset);
    }
    return c;
  }

  hasAccount(accountId: string): boolean {
    return this.cells.has(accountId);
  }

  /** Moves `amount` from available to freeze; false (and nothing moved) when available is short. */
  static tryFreeze(c: Cell, amount: Decimal): boolean {
    if (c.available.lt(amount)) return false;
    c.available = c.available.sub(amount);
    c.freeze = c.freeze.add(amount);
    return true;
  }

  /** Returns frozen funds to available. */
  static release(c: Cell, amount: Decimal): void {
    if (amount.isZero()) return;
    c.freeze = c.freeze.sub(amount);
    c.available = c.available.add(amount);
  }

  addFee(asset: string, amount: Decimal): void {
    if (amount.isZero()) return;
    this.fees.set(asset, (this.fees.get(asset) ?? ZERO).add(amount));
  }

  feesCollected(asset: string): Decimal {
    return this.fees.get(asset) ?? ZERO;
  }

  /** Funds moved out of a main balance into a created code. */
  addCode(asset: string, amount: Decimal): void {
    this.codes.set(asset, (this.codes.get(asset) ?? ZERO).add(amount));
  }

  codesHeld(asset: string): Decimal {
    return this.codes.get(asset) ?? ZERO;
  }

  tradeBalances(accountId: string): Balances {
    const out: Record<string, AssetBalance> = {};
    for (const asset of [...this.assetSet].sort()) {
      const c = this.cell(accountId, asset);
      out[asset] = { available: c.available, freeze: c.freeze };
    }
    return out;
  }

  /** The venue omits assets whose main balance is zero. */
  mainBalances(accountId: string): MainBalances {
    const out: Record<string, Decimal> = {};
    for (const asset of [...this.assetSet].sort()) {
      const c = this.cell(accountId, asset);
      if (!c.main.isZero()) out[asset] = c.main;
    }
    return out;
  }

  /** Sum over accounts of available + freeze + main, plus fees collected and funds held in codes. */
  totals(asset: string): Decimal {
    let sum = this.feesCollected(asset).add(this.codesHeld(asset));
    for (const byAsset of this.cells.values()) {
      const c = byAsset.get(asset);
      if (c !== undefined) sum = sum.add(c.available).add(c.freeze).add(c.main);
    }
    return sum;
  }
}
