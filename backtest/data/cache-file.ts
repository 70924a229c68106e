/**
 * The recording cache: a compact binary copy of a recording (src/recording/recording-format.ts) that a replay reads
 * without gunzip or JSON. Built transparently the first time a recording is read to its end (by `DataFeed`), or
 * explicitly (`bot cache build`, `buildRecordingCache`); stored in the cache directory (./cache-settings.ts).
 *
 * Keying: the file name is `<sha256(absolute path)[:16]>-<sha256(key)[:24]>.v4rc`, the key being the format
 * version, the absolute path, size, mtime (ns) and SHA-256 of the source's first and last 64 KiB. The header
 * repeats the key and the reader compares it with the source as it is now, so a changed source is never served
 * stale (it gets a new cache; the builder then deletes the caches of the path's older versions).
 *
 * Layout (little-endian): "V4TRCACH", u32 version, u32 header length, header JSON (the key), blocks
 * (./cache-block.ts; each starts at a multiple of 8), the block index (per block: f64 offset, u32 length,
 * u32 CRC-32, u32 events, u32 0), and a 24-byte footer: f64 index offset, u32 blocks, u32 CRC-32 of the
 * index, "V4TRDONE". Written to a temporary file and renamed into place, so a reader sees a whole cache or none.
 * On open: magic, version, key, footer and index are checked (a truncated file has no valid footer); each
 * block's CRC and structure are checked when it is read. Anything wrong: the cache is not trusted (`DataFeed`
 * reads the text instead and rebuilds it).
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RecordingFormatError } from '../../src/recording/recording-format.js';

/** Bump on any change of the layout or of what a block means: older caches are then ignored and rebuilt. */
export const CACHE_FORMAT_VERSION = 1;
export const MAGIC = Buffer.from('V4TRCACH');
export const END_MAGIC = Buffer.from('V4TRDONE');
export const FOOTER_BYTES = 24;
export const INDEX_ENTRY_BYTES = 24;
export const EDGE_BYTES = 64 * 1024;
export const SUFFIX = '.v4rc';

/** What identifies a source file's content for the cache. */
export interface CacheKey {
  readonly version: number;
  readonly source: string;
  readonly size: number;
  readonly mtimeNs: string;
  /** SHA-256 of the first and last 64 KiB. */
  readonly head: string;
  readonly tail: string;
}

/** A cache block that failed its checks while being read; `eventsBefore` events of the file were already served. */
export class CacheDamagedError extends RecordingFormatError {
  constructor(
    message: string,
    readonly eventsBefore: number,
    cause?: unknown,
  ) {
    super(message, cause);
  }
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The key of `file` as it is now (throws when the file cannot be read). */
export function cacheKeyOf(file: string): CacheKey {
  const source = resolve(file);
  const fd = openSync(source, 'r');
  try {
    const st = fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    const edge = (position: number): string => {
      const buf = Buffer.alloc(Math.min(EDGE_BYTES, size));
      const n = readSync(fd, buf, 0, buf.length, position);
      return sha256(buf.subarray(0, n));
    };
    return { version: CACHE_FORMAT_VERSION, source, size, mtimeNs: st.mtimeNs.toString(), head: edge(0), tail: edge(Math.max(0, size - EDGE_BYTES)) };
  } finally {
    closeSync(fd);
  }
}

export const sameKey = (a: CacheKey, b: CacheKey): boolean =>
  a.version === b.version && a.source === b.source && a.size === b.size && a.mtimeNs === b.mtimeNs && a.head === b.head && a.tail === b.tail;

export const pathPrefix = (key: CacheKey): string => sha256(key.source).slice(0, 16);

/** Where the cache of a source with this key lives in `dir`. */
export function cachePathFor(key: CacheKey, dir: string): string {
  return join(dir, `${pathPrefix(key)}-${sha256(JSON.stringify(key)).slice(0, 24)}${SUFFIX}`);
}

export const pad8 = (n: number): number => n + ((8 - (n % 8)) % 8);
