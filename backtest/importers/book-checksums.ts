/**
 * The exchanges' own CRC32 checksums of their books, computed over the level strings exactly as
 * received: a rebuilt book that matches after every message is the exchange's book.
 */
import { crc32 } from 'node:zlib';
import type { Level } from './book-side.js';

/** OKX v5 `books`: top 25 a side, "bidPx:bidSz:askPx:askSz:..." interleaved, CRC32 as a signed int32. */
export function okxChecksum(bids: readonly Level[], asks: readonly Level[]): number {
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    const b = bids[i];
    const a = asks[i];
    if (b) parts.push(b[0], b[1]);
    if (a) parts.push(a[0], a[1]);
  }
  return crc32(parts.join(':')) | 0;
}

/** Kraken v1 `book`: top 10 asks then top 10 bids, each price and volume without "." and leading zeros, concatenated; CRC32 unsigned. */
export function krakenChecksum(bids: readonly Level[], asks: readonly Level[]): string {
  const strip = (s: string): string => s.replace('.', '').replace(/^0+/, '');
  let text = '';
  for (const [p, q] of asks.slice(0, 10)) text += strip(p) + strip(q);
  for (const [p, q] of bids.slice(0, 10)) text += strip(p) + strip(q);
  return String(crc32(text) >>> 0);
}
