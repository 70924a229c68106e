import type { AssetBalance, Balances, MainBalances } from '../model/balance.js';
import type { Decimal } from '../model/decimal.js';
import { fromUnits, toUnits } from './units.js';

/**
 * One account's holding of one asset, in exact integer units of 10^-scale (see units.ts). Mutable on
 * purpose: matching updates it in place.
 */
export interface Cell {
  /** Trade balance free to use. */
  available: bigint;
  /** Trade balance locked by open orders. */
  freeze: bigint;
  /** Main balance (codes spend it). */
  main: bigint;
}

/**
 * Every unit of every asset the exchange holds, exactly. Funds only move between cells, into the fee
 * pool (fees charged by matching) or into the code pool (created codes): `totals(asset)` is therefore
 * constant over the life of the exchange, which the property tests check.
 */
export class Ledger {
  private readonly cells = new Map<string, Map<string, Cell>>();
  private readonly fees = new Map<string, bigint>();
  private readonly codes = new Map<string, bigint>();
  private readonly assetSet: Set<string>;

  constructor(
    assets: Iterable<string>,
    /** Decimal places of one unit. */
    readonly scale: number,
  ) {
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
      const t = trade[asset];
      const m = main[asset];
      byAsset.set(asset, { available: t === undefined ? 0n : this.units(t), freeze: 0n, main: m === undefined ? 0n : this.units(m) });
    }
  }

  units(value: Decimal): bigint {
    return toUnits(value, this.scale);
  }

  decimal(units: bigint): Decimal {
    return fromUnits(units, this.scale);
  }

  /** The account's cell for an asset (created empty for an asset the account never held). */
  cell(accountId: string, asset: string): Cell {
    const byAsset = this.cells.get(accountId);
    if (byAsset === undefined) throw new Error(`ledger: unknown account ${accountId}`);
    let c = byAsset.get(asset);
    if (c === undefined) {
      c = { available: 0n, freeze: 0n, main: 0n };
      byAsset.set(asset, c);
      this.assetSet.add(asset);
    }
    return c;
  }

  hasAccount(accountId: string): boolean {
    return this.cells.has(accountId);
  }

  /** Moves `units` from available to freeze; false (and nothing moved) when available is short. */
  static tryFreeze(c: Cell, units: bigint): boolean {
    if (c.available < units) return false;
    c.available -= units;
    c.freeze += units;
    return true;
  }

  /** Returns frozen funds to available. */
  static release(c: Cell, units: bigint): void {
    c.freeze -= units;
    c.available += units;
  }

  addFee(asset: string, units: bigint): void {
    this.fees.set(asset, (this.fees.get(asset) ?? 0n) + units);
  }

  feesCollected(asset: string): Decimal {
    return this.decimal(this.fees.get(asset) ?? 0n);
  }

  /** Funds moved out of a main balance into a created code. */
  addCode(asset: string, units: bigint): void {
    this.codes.set(asset, (this.codes.get(asset) ?? 0n) + units);
  }

  tradeBalances(accountId: string): Balances {
    const out: Record<string, AssetBalance> = {};
    for (const asset of [...this.assetSet].sort()) {
      const c = this.cell(accountId, asset);
      out[asset] = { available: this.decimal(c.available), freeze: this.decimal(c.freeze) };
    }
    return out;
  }

  /** The venue omits assets whose main balance is zero. */
  mainBalances(accountId: string): MainBalances {
    const out: Record<string, Decimal> = {};
    for (const asset of [...this.assetSet].sort()) {
      const c = this.cell(accountId, asset);
      if (c.main !== 0n) out[asset] = this.decimal(c.main);
    }
    return out;
  }

  /** Sum over accounts of available + freeze + main, plus fees collected and funds held in codes. */
  totals(asset: string): Decimal {
    let sum = (this.fees.get(asset) ?? 0n) + (this.codes.get(asset) ?? 0n);
    for (const byAsset of this.cells.values()) {
      const c = byAsset.get(asset);
      if (c !== undefined) sum += c.available + c.freeze + c.main;
    }
    return this.decimal(sum);
  }
}
