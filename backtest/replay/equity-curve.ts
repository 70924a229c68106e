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

/**
 * Points per chunk of the columns while the replay pushes. A curve grown by doubling one array per column copied
 * and allocated about twice its final size on the way (4.4 ms of a day's 86,400 pushes, most of it fresh pages
 * touched); chunks are written once, and joined into one array per column at the first read (the report's, after
 * the replay), which is one copy of the curve.
 */
const CHUNK = 4096;

const EMPTY = new Float64Array(0);

/** Four columns of one chunk (or of the joined curve). */
interface Block {
  readonly t: Float64Array;
  readonly mid: Float64Array;
  readonly equity: Float64Array;
  readonly inventory: Float64Array;
}

export class EquityCurve implements Iterable<EquityPoint> {
  /** The points up to the last read, contiguous: columns exactly `#joined` long. */
  #base: Block;
  #joined: number;
  /** Chunks pushed since, all full but the last, which holds `#k` points (`#k === CHUNK` before the first). */
  #chunks: Block[] = [];
  #k = CHUNK;
  /** The last chunk's columns, kept apart: push writes them without looking the chunk up. */
  #t: Float64Array = EMPTY;
  #mid: Float64Array = EMPTY;
  #equity: Float64Array = EMPTY;
  #inventory: Float64Array = EMPTY;
  #n: number;

  constructor(columns?: EquityColumns) {
    if (columns !== undefined && !sameLengths(columns)) throw new RangeError('equity columns of different lengths');
    this.#base = columns ?? { t: EMPTY, mid: EMPTY, equity: EMPTY, inventory: EMPTY };
    this.#n = this.#joined = this.#base.t.length;
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
    if (this.#k === CHUNK) this.#chunk();
    const i = this.#k;
    this.#t[i] = t;
    this.#mid[i] = mid;
    this.#equity[i] = equity;
    this.#inventory[i] = inventory;
    this.#k = i + 1;
    this.#n += 1;
  }

  /** Point `i` (negative counts from the end, as Array.prototype.at), or undefined outside the curve. */
  at(i: number): EquityPoint | undefined {
    const k = i < 0 ? this.#n + i : i;
    if (!Number.isInteger(k) || k < 0 || k >= this.#n) return undefined;
    const b = this.#flat();
    return { t: b.t[k]!, mid: b.mid[k]!, equity: b.equity[k]!, inventory: b.inventory[k]! };
  }

  *[Symbol.iterator](): Iterator<EquityPoint> {
    for (let i = 0; i < this.#n; i++) yield this.at(i)!;
  }

  /** A read-only view of one column, as long as the curve (it follows no later push). */
  column(name: keyof EquityColumns): Float64Array {
    return this.#flat()[name];
  }

  /** The columns trimmed to the curve, each in a buffer of its own (what a worker thread transfers). */
  columns(): EquityColumns {
    const b = this.#flat();
    return { t: b.t.slice(), mid: b.mid.slice(), equity: b.equity.slice(), inventory: b.inventory.slice() };
  }

  /** JSON as the list of points (what the curve was before it was kept in columns). */
  toJSON(): EquityPoint[] {
    return [...this];
  }

  #chunk(): void {
    const c: Block = { t: new Float64Array(CHUNK), mid: new Float64Array(CHUNK), equity: new Float64Array(CHUNK), inventory: new Float64Array(CHUNK) };
    this.#chunks.push(c);
    this.#t = c.t;
    this.#mid = c.mid;
    this.#equity = c.equity;
    this.#inventory = c.inventory;
    this.#k = 0;
  }

  /** The curve as one block, each column exactly as long as the curve: the chunks joined onto the base once. */
  #flat(): Block {
    if (this.#chunks.length === 0) return this.#base;
    const n = this.#n;
    const join = (name: keyof Block): Float64Array => {
      const out = new Float64Array(n);
      out.set(this.#base[name]);
      let at = this.#joined;
      for (const c of this.#chunks) {
        const take = Math.min(CHUNK, n - at);
        out.set(take === CHUNK ? c[name] : c[name].subarray(0, take), at);
        at += take;
      }
      return out;
    };
    this.#base = { t: join('t'), mid: join('mid'), equity: join('equity'), inventory: join('inventory') };
    this.#joined = n;
    this.#chunks = [];
    this.#k = CHUNK;
    return this.#base;
  }
}

function sameLengths(c: EquityColumns): boolean {
  const n = c.t.length;
  return c.mid.length === n && c.equity.length === n && c.inventory.length === n;
}
