/** Writing the recording cache (the layout is described in ./cache-file.ts). */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { RecordingLine } from '../../src/recording/recording-format.js';
import { BlockEncoder } from './block-encoder.js';
import type { RecordingCacheSettings } from './cache-settings.js';
import {
  CACHE_FORMAT_VERSION,
  cacheKeyOf,
  cachePathFor,
  END_MAGIC,
  FOOTER_BYTES,
  INDEX_ENTRY_BYTES,
  MAGIC,
  pad8,
  pathPrefix,
  sameKey,
  SUFFIX,
  type CacheKey,
} from './cache-file.js';

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
