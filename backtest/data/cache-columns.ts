/**
 * Columns of the recording cache's blocks (./cache-block.ts): a typed array stored as raw little-endian bytes,
 * or a single constant when every value is the same (the decimals of a fixed-format price column, the one
 * ticker of a file). Every column starts at a multiple of 8 bytes, so the reader views the bytes in place
 * (no copy) with a Float64Array/Int32Array/Uint8Array over the block's buffer.
 *
 * Column = 8-byte head (u8 type, 3 bytes zero, u32 count) + body: type 0 = constant (one f64), 1 = u8[count],
 * 2 = i32[count], 3 = f64[count]; the body is zero-padded to a multiple of 8.
 */
import { RecordingFormatError } from '../../src/recording/recording-format.js';

const CONST = 0;
const U8 = 1;
const I32 = 2;
const F64 = 3;

/** Appends little-endian columns to a growing byte buffer. */
export class ColumnWriter {
  #buf = new Uint8Array(1 << 16);
  #view = new DataView(this.#buf.buffer);
  #len = 0;

  get length(): number {
    return this.#len;
  }

  #reserve(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }

  u32(v: number): void {
    this.#reserve(4);
    this.#view.setUint32(this.#len, v, true);
    this.#len += 4;
  }

  /** Zero bytes up to the next multiple of 8. */
  align(): void {
    const pad = (8 - (this.#len % 8)) % 8;
    this.#reserve(pad);
    this.#buf.fill(0, this.#len, this.#len + pad);
    this.#len += pad;
  }

  bytes(b: Uint8Array): void {
    this.#reserve(b.length);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    this.align();
  }

  /** Small non-negative integers (kinds, sides, decimal counts): a constant or a u8 column. */
  smallInts(values: readonly number[]): void {
    this.#column(values, true);
  }

  /** Exact integers or any doubles (times, scaled prices): a constant, an i32 column when all fit, else f64. */
  numbers(values: readonly number[]): void {
    this.#column(values, false);
  }

  #column(values: readonly number[], small: boolean): void {
    const n = values.length;
    let same = true;
    let int32 = true;
    const first = values[0] ?? 0;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (v !== first || Object.is(v, -0)) same = false;
      if ((v | 0) !== v || Object.is(v, -0)) int32 = false;
      if (small && !(v >= 0 && v <= 255 && (v | 0) === v)) throw new RangeError(`cache column: ${v} is not a byte`);
    }
    const type = same ? CONST : small ? U8 : int32 ? I32 : F64;
    this.#reserve(8);
    this.#view.setUint8(this.#len, type);
    this.#view.setUint8(this.#len + 1, 0);
    this.#view.setUint16(this.#len + 2, 0);
    this.#view.setUint32(this.#len + 4, n, true);
    this.#len += 8;
    const width = type === CONST ? 8 : type === U8 ? 1 : type === I32 ? 4 : 8;
    const body = type === CONST ? 8 : n * width;
    this.#reserve(body + 8);
    if (type === CONST) this.#view.setFloat64(this.#len, first, true);
    else if (type === U8) for (let i = 0; i < n; i++) this.#view.setUint8(this.#len + i, values[i]!);
    else if (type === I32) for (let i = 0; i < n; i++) this.#view.setInt32(this.#len + 4 * i, values[i]!, true);
    else for (let i = 0; i < n; i++) this.#view.setFloat64(this.#len + 8 * i, values[i]!, true);
    this.#len += body;
    this.align();
  }

  /** The bytes written (a copy-free view). */
  result(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }
}

/** A decoded column: the values as a typed array, and the constant when the column stored one (else NaN). */
export interface Column<A extends ArrayLike<number> = ArrayLike<number>> {
  readonly values: A;
  readonly constant: number;
}

/**
 * Reads columns in place from a block's bytes. `bytes.byteOffset` must be a multiple of 8 (the reader allocates
 * each block in its own ArrayBuffer). Every bound is checked: a corrupt block throws, it is never read past.
 */
export class ColumnReader {
  readonly #view: DataView;
  #pos = 0;
  constructor(readonly bytes: Uint8Array) {
    if (bytes.byteOffset % 8 !== 0) throw new RangeError('cache block: unaligned buffer');
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  #need(n: number): void {
    if (this.#pos + n > this.bytes.byteLength) throw new RecordingFormatError('cache block: truncated');
  }

  u32(): number {
    this.#need(4);
    const v = this.#view.getUint32(this.#pos, true);
    this.#pos += 4;
    return v;
  }

  align(): void {
    this.#pos += (8 - (this.#pos % 8)) % 8;
  }

  bytesOf(n: number): Uint8Array {
    this.#need(n);
    const b = this.bytes.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    this.align();
    return b;
  }

  /** A u8 column (or a constant expanded to one), of exactly `n` values. */
  smallInts(n: number): Column<Uint8Array> {
    const { type, count } = this.#head(n);
    if (type === CONST) {
      const c = this.#constant();
      if (!(c >= 0 && c <= 255 && (c | 0) === c)) throw new RecordingFormatError('cache block: bad constant');
      return { values: new Uint8Array(n).fill(c), constant: c };
    }
    if (type !== U8) throw new RecordingFormatError('cache block: bad column type');
    return { values: this.#body(count, 1, (o) => new Uint8Array(this.bytes.buffer, o, count)), constant: Number.NaN };
  }

  /** An i32 or f64 column (a constant is expanded to a Float64Array), of exactly `n` values. */
  numbers(n: number): Column<Int32Array | Float64Array> {
    const { type, count } = this.#head(n);
    if (type === CONST) {
      const c = this.#constant();
      return { values: new Float64Array(n).fill(c), constant: c };
    }
    if (type === I32) return { values: this.#body(count, 4, (o) => new Int32Array(this.bytes.buffer, o, count)), constant: Number.NaN };
    if (type === F64) return { values: this.#body(count, 8, (o) => new Float64Array(this.bytes.buffer, o, count)), constant: Number.NaN };
    throw new RecordingFormatError('cache block: bad column type');
  }

  #head(n: number): { type: number; count: number } {
    this.#need(8);
    const type = this.#view.getUint8(this.#pos);
    const count = this.#view.getUint32(this.#pos + 4, true);
    this.#pos += 8;
    if (count !== n || type > F64) throw new RecordingFormatError('cache block: bad column head');
    return { type, count };
  }

  #constant(): number {
    this.#need(8);
    const c = this.#view.getFloat64(this.#pos, true);
    this.#pos += 8;
    return c;
  }

  #body<A>(count: number, width: number, view: (byteOffset: number) => A): A {
    this.#need(count * width);
    const a = view(this.bytes.byteOffset + this.#pos);
    this.#pos += count * width;
    this.align();
    return a;
  }
}
