/**
 * A lane's equity curve, one point per sample (a day of 1 s snapshots is 86,400), kept as four Float64Array
 * columns instead of one object per point: nothing for the collector to trace or promote while the replay runs,
 * and the columns cross a worker thread as transferred buffers, with no conversion on either side.
 */

/** One point of the equity curve (numbers: chart data; the exact figures are in the summary). */
export interface EquityPoint {
  readonly t: number;
  readonly mid: number;
  /** money + stock × mid, in the money asset. */
  readonly equity: number;
  /** Stock total (available + freeze). */
  readonly inventory: number;
}

/** The curve's columns, each exactly as long as the curve. */
export interface EquityColumns {
  readonly t: Float64Array;
  readonly mid: Float64Array;
  readonly equity: Float64Array;
  readonly inventory: Float64Array;
}

const FIRST_CAPACITY = 1024;

export class EquityCurve implements Iterable<EquityPoint> {
  #t: Float64Array;
  #mid: Float64Array;
  #equity: Float64Array;
  #inventory: Float64Array;
  #n: number;

  constructor(columns?: EquityColumns) {
    if (columns !== undefined && !sameLengths(columns)) throw new RangeError('equity columns of different lengths');
    this.#t = columns?.t ?? new Float64Array(FIRST_CAPACITY);
    this.#mid = columns?.mid ?? new Float64Array(FIRST_CAPACITY);
    this.#equity = columns?.equity ?? new Float64Array(FIRST_CAPACITY);
    this.#inventory = columns?.inventory ?? new Float64Array(FIRST_CAPACITY);
    this.#n = columns?.t.length ?? 0;
  }

  /** A curve of these points (tests, reports built from plain data). */
  static of(points: Iterable<EquityPoint>): EquityCurve {
    const c = new EquityCurve();
    for (const p of points) c.push(p.t, p.mid, p.equity, p.inventory);
    return c;
  }

  get length(): number {
    return this.#n;
  }

  push(t: number, mid: number, equity: number, inventory: number): void {
    if (this.#n === this.#t.length) this.#grow();
    const i = this.#n;
    this.#t[i] = t;
    this.#mid[i] = mid;
    this.#equity[i] = equity;
    this.#inventory[i] = inventory;
    this.#n = i + 1;
  }

  /** Point `i` (negative counts from the end, as Array.prototype.at), or undefined outside the curve. */
  at(i: number): EquityPoint | undefined {
    const k = i < 0 ? this.#n + i : i;
    if (!Number.isInteger(k) || k < 0 || k >= this.#n) return undefined;
    return { t: this.#t[k]!, mid: this.#mid[k]!, equity: this.#equity[k]!, inventory: this.#inventory[k]! };
  }

  *[Symbol.iterator](): Iterator<EquityPoint> {
    for (let i = 0; i < this.#n; i++) yield this.at(i)!;
  }

  /** A read-only view of one column, as long as the curve (it follows no later push). */
  column(name: keyof EquityColumns): Float64Array {
    const all = name === 't' ? this.#t : name === 'mid' ? this.#mid : name === 'equity' ? this.#equity : this.#inventory;
    return all.subarray(0, this.#n);
  }

  /** The columns trimmed to the curve, each in a buffer of its own (what a worker thread transfers). */
  columns(): EquityColumns {
    return {
      t: this.#t.slice(0, this.#n),
      mid: this.#mid.slice(0, this.#n),
      equity: this.#equity.slice(0, this.#n),
      inventory: this.#inventory.slice(0, this.#n),
    };
  }

  /** JSON as the list of points (what the curve was before it was kept in columns). */
  toJSON(): EquityPoint[] {
    return [...this];
  }

  #grow(): void {
    const size = Math.max(FIRST_CAPACITY, this.#t.length * 2);
    const grown = (a: Float64Array): Float64Array => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.#t = grown(this.#t);
    this.#mid = grown(this.#mid);
    this.#equity = grown(this.#equity);
    this.#inventory = grown(this.#inventory);
  }
}

function sameLengths(c: EquityColumns): boolean {
  const n = c.t.length;
  return c.mid.length === n && c.equity.length === n && c.inventory.length === n;
}
