import { describe, expect, it } from 'vitest';
import { BlockEncoder } from '../../backtest/data/block-encoder.js';
import { CacheBlock } from '../../backtest/data/cache-block.js';
import { MAX_DECIMALS } from '../../backtest/data/plain-decimal.js';
import { RecordingFormatError } from '../../src/recording/recording-format.js';

/** A block of two books of one level a side: their ask and bid prices as written. */
function block(prices: readonly [string, string, string, string]): Uint8Array {
  const e = new BlockEncoder();
  for (const [t, ask, bid] of [
    [1000, prices[0], prices[1]],
    [2000, prices[2], prices[3]],
  ] as const) {
    const reason = e.add({ type: 'book', t, book: { ticker_id: 'BTC_USDT', timestamp: t / 1000, asks: [[ask, '1']], bids: [[bid, '2']] } });
    expect(reason).toBeUndefined();
  }
  // a buffer of its own, at offset 0 (the reader needs an 8-aligned offset)
  return e.encode();
}

/** Byte offset of the head of column `k` (0 = kinds) in a block payload. */
function columnAt(bytes: Uint8Array, k: number): number {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 24; // six u32
  for (let i = 0; i < k; i++) {
    const type = v.getUint8(pos);
    const count = v.getUint32(pos + 4, true);
    const body = type === 0 ? 8 : count * [0, 1, 4, 8][type]!;
    pos += 8 + Math.ceil(body / 8) * 8;
  }
  return pos;
}

/** The price decimals column: kinds, bookT, bookTs, bookTicker, levelStart, askCount, price, then it. */
const PRICE_DEC = 7;

describe('a cache block refuses decimals past MAX_DECIMALS, however the column is stored', () => {
  it('a constant column (every price with the same decimals) is checked by its one value', () => {
    const bytes = block(['100.10', '100.00', '100.20', '100.05']);
    expect(() => new CacheBlock(bytes)).not.toThrow();
    const at = columnAt(bytes, PRICE_DEC);
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(v.getUint8(at)).toBe(0); // constant
    expect(v.getFloat64(at + 8, true)).toBe(2);
    v.setFloat64(at + 8, MAX_DECIMALS + 1, true);
    expect(() => new CacheBlock(bytes)).toThrow(RecordingFormatError);
    v.setFloat64(at + 8, MAX_DECIMALS, true);
    expect(() => new CacheBlock(bytes)).not.toThrow();
  });

  it('a column of per-level decimals is checked level by level', () => {
    const bytes = block(['100.1', '100.00', '100.205', '100.05']);
    expect(() => new CacheBlock(bytes)).not.toThrow();
    const at = columnAt(bytes, PRICE_DEC);
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(v.getUint8(at)).toBe(1); // u8 per level
    expect([0, 1, 2, 3].map((i) => v.getUint8(at + 8 + i))).toEqual([1, 2, 3, 2]);
    v.setUint8(at + 8 + 3, MAX_DECIMALS + 1);
    expect(() => new CacheBlock(bytes)).toThrow(RecordingFormatError);
  });
});
