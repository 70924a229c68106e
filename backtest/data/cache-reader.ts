/** Reading and checking the recording cache (the layout is described in ./cache-file.ts). */
import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { CacheBlock } from './cache-block.js';
import type { RecordingCacheSettings } from './cache-settings.js';
import {
  CACHE_FORMAT_VERSION,
  CacheDamagedError,
  cacheKeyOf,
  cachePathFor,
  END_MAGIC,
  FOOTER_BYTES,
  INDEX_ENTRY_BYTES,
  MAGIC,
  pad8,
  sameKey,
  type CacheKey,
} from './cache-file.js';

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
