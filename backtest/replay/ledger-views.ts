/**
 * Read views of one ledger account that the replay asks for far more often than the account changes: the trade
 * balance (polled every few seconds) and each asset's total as a number (sampled on every snapshot for the equity
 * curve). Values are rebuilt only when the asset's cell (integer units) changed, so they are exactly what
 * `ledger.tradeBalances` / `ledger.decimal(...).toNumber()` give (the number made straight from the units).
 */
import type { AssetBalance, Balances } from '../../src/model/balance.js';
import { ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Cell, Ledger } from '../../src/sim/ledger.js';

export class LedgerViews {
  readonly #totals = new Map<string, TotalNumber>();
  readonly #balances = new Map<
    string,
    { readonly cell: Cell; available: bigint; freeze: bigint; value: AssetBalance; readonly decimals: readonly [RecentDecimals, RecentDecimals] }
  >();
  /** The ledger's assets sorted, and how many there were then (the ledger only ever adds assets). */
  #sorted: { readonly size: number; readonly assets: readonly string[] } = { size: -1, assets: [] };

  constructor(
    private readonly ledger: Ledger,
    /** Its cells are read through references kept from the first look: the account must be open already (a ledger makes a cell once and then only changes its parts). */
    private readonly account: string,
  ) {}

  /** As `ledger.tradeBalances(account)`: every asset, sorted, available and freeze. */
  tradeBalances(): Balances {
    const out: Record<string, AssetBalance> = {};
    const all = this.ledger.assets;
    if (this.#sorted.size !== all.size) this.#sorted = { size: all.size, assets: [...all].sort() };
    for (const asset of this.#sorted.assets) {
      let cached = this.#balances.get(asset);
      const c = cached?.cell ?? this.ledger.cell(this.account, asset);
      if (cached === undefined || cached.available !== c.available || cached.freeze !== c.freeze) {
        const decimals = cached?.decimals ?? [new RecentDecimals(this.ledger), new RecentDecimals(this.ledger)];
        cached = {
          cell: c,
          available: c.available,
          freeze: c.freeze,
          value: { available: decimals[0].of(c.available), freeze: decimals[1].of(c.freeze) },
          decimals,
        };
        this.#balances.set(asset, cached);
      }
      out[asset] = cached.value;
    }
    return out;
  }

  /** available + freeze of an asset, as a number (charts only). */
  totalNumber(asset: string): number {
    return this.#total(asset).read();
  }

  /**
   * `totalNumber(asset)` as a function of no arguments, for a reader that asks for the same asset on every snapshot
   * (the equity sample): the same cached number, without the look-up by name.
   */
  totalNumberOf(asset: string): () => number {
    const total = this.#total(asset);
    return () => total.read();
  }

  #total(asset: string): TotalNumber {
    let cached = this.#totals.get(asset);
    if (cached === undefined) {
      cached = new TotalNumber(this.ledger.cell(this.account, asset), this.ledger.scale);
      this.#totals.set(asset, cached);
    }
    return cached;
  }
}

/**
 * `ledger.decimal(units)` of one part of a cell, the last two values kept: an order's lock moves units from one part
 * to the other and its end moves them back, so a part often returns to the value before (and the other part of a
 * changed cell often stays). A Decimal is immutable: the one made before for the same units is the same value.
 */
class RecentDecimals {
  #units: bigint | undefined;
  #value: Decimal = ZERO;
  #olderUnits: bigint | undefined;
  #olderValue: Decimal = ZERO;
  constructor(private readonly ledger: Ledger) {}

  of(units: bigint): Decimal {
    if (units === this.#units) return this.#value;
    let value: Decimal;
    if (units === this.#olderUnits) value = this.#olderValue;
    else value = this.ledger.decimal(units);
    this.#olderUnits = this.#units;
    this.#olderValue = this.#value;
    this.#units = units;
    this.#value = value;
    return value;
  }
}

/** One cell's total as a number, made again only when the cell changed. */
class TotalNumber {
  available: bigint;
  freeze: bigint;
  total: bigint;
  value: number;
  constructor(
    readonly cell: Cell,
    readonly scale: number,
  ) {
    this.available = cell.available;
    this.freeze = cell.freeze;
    this.total = cell.available + cell.freeze;
    this.value = unitsToNumber(this.total, scale);
  }

  read(): number {
    const c = this.cell;
    // the cell's two parts compared, not their sum: a bigint sum allocates, and this runs twice per snapshot
    if (this.available !== c.available || this.freeze !== c.freeze) {
      const total = c.available + c.freeze;
      // placing or cancelling an order only moves units between the parts: the total, so the number, stays
      if (total !== this.total) this.value = unitsToNumber(total, this.scale);
      this.available = c.available;
      this.freeze = c.freeze;
      this.total = total;
    }
    return this.value;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
/** 10^0 … 10^22: every power of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * `ledger.decimal(units).toNumber()` without the Decimal: both are the double nearest the exact value units × 10^-scale
 * (decimal.js's toNumber parses the Decimal's exact text, as Number parses this one), so the same number. Below 2^53
 * units and at a scale up to 22, units and 10^scale are doubles exactly, and IEEE division rounds their exact quotient
 * to the nearest double as well: the same number again, without the text.
 */
export function unitsToNumber(units: bigint, scale: number): number {
  if (scale <= 22 && units <= MAX_SAFE && units >= MIN_SAFE) return Number(units) / POW10[scale]!;
  return Number(`${units}e-${scale}`);
}
