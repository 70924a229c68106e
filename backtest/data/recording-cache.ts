/**
 * The recording cache: a compact binary copy of a recording (src/venue/recording-format.ts) that a replay reads
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
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { readRecordingBatches, RecordingFormatError, type RecordingLine } from '../../src/venue/recording-format.js';
import { BlockEncoder, CacheBlock } from './cache-block.js';
import { recordingCacheSettings, type RecordingCacheOptions, type RecordingCacheSettings } from './cache-settings.js';

/** Bump on any change of the layout or of what a block means: older caches are then ignored and rebuilt. */
export const CACHE_FORMAT_VERSION = 1;
const MAGIC = Buffer.from('V4TRCACH');
const END_MAGIC = Buffer.from('V4TRDONE');
const FOOTER_BYTES = 24;
const INDEX_ENTRY_BYTES = 24;
const EDGE_BYTES = 64 * 1024;
const SUFFIX = '.v4rc';

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

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

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

const sameKey = (a: CacheKey, b: CacheKey): boolean =>
  a.version === b.version && a.source === b.source && a.size === b.size && a.mtimeNs === b.mtimeNs && a.head === b.head && a.tail === b.tail;

const pathPrefix = (key: CacheKey): string => sha256(key.source).slice(0, 16);

/** Where the cache of a source with this key lives in `dir`. */
export function cachePathFor(key: CacheKey, dir: string): string {
  return join(dir, `${pathPrefix(key)}-${sha256(JSON.stringify(key)).slice(0, 24)}${SUFFIX}`);
}

const pad8 = (n: number): number => n + ((8 - (n % 8)) % 8);

// ------------------------------------------------------------------------------------------------ writing

/** Writes a cache file block by block (synchronously: blocks are ~1 MB and the page cache absorbs them). */
class CacheFileWriter {
  readonly #fd: number;
  #open = true;
  readonly #index: Array<{ offset: number; length: number; crc: number; events: number }> = [];
  #offset = 0;

  constructor(
    readonly tempPath: string,
    key: CacheKey,
  ) {
    this.#fd = openSync(tempPath, 'wx');
    const json = Buffer.from(JSON.stringify(key));
    const head = Buffer.alloc(pad8(16 + json.length));
    MAGIC.copy(head, 0);
    head.writeUInt32LE(CACHE_FORMAT_VERSION, 8);
    head.writeUInt32LE(json.length, 12);
    json.copy(head, 16);
    this.#write(head);
  }

  #write(b: Uint8Array): void {
    let done = 0;
    while (done < b.length) done += writeSync(this.#fd, b, done, b.length - done, this.#offset + done);
    this.#offset += b.length;
  }

  block(payload: Uint8Array, events: number): void {
    const padded = payload.length % 8 === 0 ? payload : Buffer.concat([payload, Buffer.alloc(pad8(payload.length) - payload.length)]);
    this.#index.push({ offset: this.#offset, length: payload.length, crc: crc32(payload), events });
    this.#write(padded);
  }

  /** Writes the index and footer and closes the file. */
  end(): void {
    const index = Buffer.alloc(this.#index.length * INDEX_ENTRY_BYTES);
    this.#index.forEach((e, i) => {
      const o = i * INDEX_ENTRY_BYTES;
      index.writeDoubleLE(e.offset, o);
      index.writeUInt32LE(e.length, o + 8);
      index.writeUInt32LE(e.crc, o + 12);
      index.writeUInt32LE(e.events, o + 16);
    });
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.writeDoubleLE(this.#offset, 0);
    footer.writeUInt32LE(this.#index.length, 8);
    footer.writeUInt32LE(crc32(index), 12);
    END_MAGIC.copy(footer, 16);
    this.#write(index);
    this.#write(footer);
    this.close();
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    closeSync(this.#fd);
  }
}

/**
 * Builds the cache of one source from its decoded lines, fed in file order (`add`), while something else
 * reads the text (a replay). Gives up (deleting its temporary file) at the first line it cannot store exactly,
 * or when the source changed while it was read; `finish` then renames the complete file into place.
 */
export class CacheBuilder {
  readonly #encoder: BlockEncoder;
  #writer: CacheFileWriter | undefined;
  #events = 0;

  private constructor(
    readonly key: CacheKey,
    readonly path: string,
    readonly settings: RecordingCacheSettings,
    writer: CacheFileWriter,
  ) {
    this.#writer = writer;
    this.#encoder = new BlockEncoder(settings.blockEvents);
  }

  /** A builder for `file`, or undefined (logged) when the cache is off or its directory is not writable. */
  static start(file: string, settings: RecordingCacheSettings): CacheBuilder | undefined {
    if (settings.dir === undefined) return undefined;
    try {
      const key = cacheKeyOf(file);
      mkdirSync(settings.dir, { recursive: true });
      const path = cachePathFor(key, settings.dir);
      const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
      return new CacheBuilder(key, path, settings, new CacheFileWriter(temp, key));
    } catch (error) {
      settings.log(`not caching ${file}: ${(error as Error).message}`);
      return undefined;
    }
  }

  get active(): boolean {
    return this.#writer !== undefined;
  }

  /** Number of lines stored so far. */
  get events(): number {
    return this.#events;
  }

  add(lines: readonly RecordingLine[]): void {
    if (this.#writer === undefined) return;
    try {
      for (const line of lines) {
        const why = this.#encoder.add(line);
        if (why !== undefined) {
          this.abort(`record ${this.#events + 1} (counting market, book and trade lines) cannot be stored exactly (${why}); the file stays text-only`);
          return;
        }
        this.#events += 1;
        if (this.#encoder.full) this.#flush();
      }
    } catch (error) {
      this.abort((error as Error).message);
    }
  }

  #flush(): void {
    const events = this.#encoder.events;
    if (events > 0) this.#writer!.block(this.#encoder.encode(), events);
  }

  /** Completes the cache; false (logged) when it was given up or the source changed meanwhile. */
  finish(): boolean {
    if (this.#writer === undefined) return false;
    try {
      this.#flush();
      this.#writer.end();
      if (!sameKey(cacheKeyOf(this.key.source), this.key)) {
        this.abort('the source changed while it was read');
        return false;
      }
      renameSync(this.#writer.tempPath, this.path);
      this.#writer = undefined;
      this.#removeOlderVersions();
      this.settings.log(`cached ${this.key.source} (${this.#events} lines) in ${this.path}`);
      return true;
    } catch (error) {
      this.abort((error as Error).message);
      return false;
    }
  }

  /** Gives up: deletes the temporary file. */
  abort(reason: string): void {
    const w = this.#writer;
    if (w === undefined) return;
    this.#writer = undefined;
    try {
      w.close();
      unlinkSync(w.tempPath);
    } catch {
      // nothing to delete
    }
    this.settings.log(`not caching ${this.key.source}: ${reason}`);
  }

  /** Caches of the same path for an older content of the file are garbage now. */
  #removeOlderVersions(): void {
    const dir = this.settings.dir!;
    const prefix = `${pathPrefix(this.key)}-`;
    const mine = basename(this.path);
    for (const f of readdirSync(dir)) {
      if (f.startsWith(prefix) && f.endsWith(SUFFIX) && f !== mine) {
        try {
          unlinkSync(join(dir, f));
        } catch {
          // another process removed it
        }
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------ reading

interface IndexEntry {
  readonly offset: number;
  readonly length: number;
  readonly crc: number;
  readonly events: number;
}

/** An open, validated cache of one source: its blocks, read ahead one block at a time. */
export class CacheReader {
  readonly #handle: FileHandle;
  readonly #index: readonly IndexEntry[];

  private constructor(
    readonly path: string,
    readonly size: number,
    readonly events: number,
    handle: FileHandle,
    index: readonly IndexEntry[],
  ) {
    this.#handle = handle;
    this.#index = index;
  }

  /**
   * The valid cache of `file` in the settings' directory, or undefined: no cache (off, never built, or built
   * for another content of the file), or one that fails its checks (logged; the caller rebuilds it).
   */
  static async open(file: string, settings: RecordingCacheSettings): Promise<CacheReader | undefined> {
    if (settings.dir === undefined) return undefined;
    let key: CacheKey;
    try {
      key = cacheKeyOf(file);
    } catch {
      return undefined; // the text reader reports the unreadable file
    }
    const path = cachePathFor(key, settings.dir);
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch {
      return undefined;
    }
    try {
      const { size } = await handle.stat();
      const index = await readIndex(handle, size, key);
      const events = index.reduce((n, e) => n + e.events, 0);
      return new CacheReader(path, size, events, handle, index);
    } catch (error) {
      await handle.close();
      settings.log(`ignoring the cache ${path} of ${file}: ${(error as Error).message}`);
      return undefined;
    }
  }

  /**
   * The blocks in order. The next block's read is started before the current one is handed out, so the disk
   * (or page cache) works while the replay decodes. A damaged block throws CacheDamagedError.
   * `onBytes` gets the cache bytes read so far.
   */
  async *blocks(onBytes?: (bytesRead: number) => void): AsyncGenerator<CacheBlock> {
    let eventsBefore = 0;
    let pending = this.#index.length > 0 ? this.#read(this.#index[0]!) : undefined;
    for (let i = 0; i < this.#index.length; i++) {
      const entry = this.#index[i]!;
      let bytes: Uint8Array;
      try {
        bytes = await pending!;
      } catch (error) {
        throw new CacheDamagedError(`${this.path}: ${(error as Error).message}`, eventsBefore, error);
      }
      pending = i + 1 < this.#index.length ? this.#read(this.#index[i + 1]!) : undefined;
      // a rejected read-ahead is reported when its turn comes, not as an unhandled rejection now
      pending?.catch(() => undefined);
      let block: CacheBlock;
      try {
        if (crc32(bytes) !== entry.crc) throw new Error('checksum mismatch');
        block = new CacheBlock(bytes);
        if (block.events !== entry.events) throw new Error('event count mismatch');
      } catch (error) {
        throw new CacheDamagedError(`${this.path}: block ${i}: ${(error as Error).message}`, eventsBefore, error);
      }
      onBytes?.(entry.offset + entry.length);
      yield block;
      eventsBefore += block.events;
    }
  }

  async #read(entry: IndexEntry): Promise<Uint8Array> {
    // its own ArrayBuffer, so the typed-array views of the block are 8-byte aligned
    const buf = new Uint8Array(new ArrayBuffer(entry.length));
    let done = 0;
    while (done < entry.length) {
      const { bytesRead } = await this.#handle.read(buf, done, entry.length - done, entry.offset + done);
      if (bytesRead === 0) throw new Error('unexpected end of file');
      done += bytesRead;
    }
    return buf;
  }

  async close(): Promise<void> {
    await this.#handle.close().catch(() => undefined);
  }
}

async function readExactly(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, position);
  if (bytesRead !== length) throw new Error('truncated');
  return buf;
}

/** Checks magic, version, key, footer and index; returns the index. */
async function readIndex(handle: FileHandle, size: number, key: CacheKey): Promise<IndexEntry[]> {
  if (size < 16 + FOOTER_BYTES) throw new Error('truncated');
  const head = await readExactly(handle, 16, 0);
  if (!head.subarray(0, 8).equals(MAGIC)) throw new Error('not a cache file');
  if (head.readUInt32LE(8) !== CACHE_FORMAT_VERSION) throw new Error(`format version ${head.readUInt32LE(8)}`);
  const jsonLength = head.readUInt32LE(12);
  if (16 + jsonLength + FOOTER_BYTES > size) throw new Error('truncated');
  const stored = JSON.parse((await readExactly(handle, jsonLength, 16)).toString('utf8')) as CacheKey;
  if (!sameKey(stored, key)) throw new Error('built for another content of the file');
  const footer = await readExactly(handle, FOOTER_BYTES, size - FOOTER_BYTES);
  if (!footer.subarray(16, 24).equals(END_MAGIC)) throw new Error('truncated (no footer)');
  const indexOffset = footer.readDoubleLE(0);
  const blocks = footer.readUInt32LE(8);
  if (indexOffset + blocks * INDEX_ENTRY_BYTES + FOOTER_BYTES !== size) throw new Error('bad footer');
  const raw = await readExactly(handle, blocks * INDEX_ENTRY_BYTES, indexOffset);
  if (crc32(raw) !== footer.readUInt32LE(12)) throw new Error('index checksum mismatch');
  const index: IndexEntry[] = [];
  let expected = pad8(16 + jsonLength);
  for (let i = 0; i < blocks; i++) {
    const o = i * INDEX_ENTRY_BYTES;
    const e = { offset: raw.readDoubleLE(o), length: raw.readUInt32LE(o + 8), crc: raw.readUInt32LE(o + 12), events: raw.readUInt32LE(o + 16) };
    if (e.offset !== expected || e.offset + e.length > indexOffset) throw new Error('bad index');
    expected = pad8(e.offset + e.length);
    index.push(e);
  }
  if (expected !== indexOffset) throw new Error('bad index');
  return index;
}

// ------------------------------------------------------------------------------------------------ explicit build

export type CacheBuildResult =
  | { readonly file: string; readonly status: 'built' | 'valid'; readonly path: string; readonly events: number; readonly bytes: number }
  | { readonly file: string; readonly status: 'skipped'; readonly reason: string };

/**
 * Makes sure `file` has a valid cache (`bot cache build`): keeps a valid one, else reads the text and builds
 * it. `force` rebuilds anyway. A file the cache cannot store exactly is reported as skipped, with the reason.
 */
export async function buildRecordingCache(file: string, options: RecordingCacheOptions & { readonly force?: boolean } = {}): Promise<CacheBuildResult> {
  const reasons: string[] = [];
  const base = recordingCacheSettings(options);
  const settings: RecordingCacheSettings = { ...base, log: (m) => (reasons.push(m), base.log(m)) };
  if (settings.dir === undefined) return { file, status: 'skipped', reason: 'the cache is off' };
  if (options.force !== true) {
    const existing = await CacheReader.open(file, settings);
    if (existing !== undefined) {
      await existing.close();
      return { file, status: 'valid', path: existing.path, events: existing.events, bytes: existing.size };
    }
  }
  const builder = CacheBuilder.start(file, settings);
  if (builder === undefined) return { file, status: 'skipped', reason: reasons.at(-1) ?? 'cannot write the cache' };
  try {
    for await (const lines of readRecordingBatches(file)) {
      builder.add(lines);
      if (!builder.active) break;
    }
  } catch (error) {
    builder.abort((error as Error).message);
  }
  if (!builder.finish()) return { file, status: 'skipped', reason: reasons.at(-1) ?? 'not cached' };
  return { file, status: 'built', path: builder.path, events: builder.events, bytes: statSync(builder.path).size };
}
