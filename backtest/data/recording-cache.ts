/**
 * The recording cache: a compact binary copy of a recording that a replay reads without gunzip or JSON (keying
 * and layout: ./cache-file.ts; writing: ./cache-writer.ts; reading: ./cache-reader.ts). This module is its entry
 * point and the explicit build (`bot cache build`).
 */
import { statSync } from 'node:fs';
import { readRecordingBatches, RecordingFormatError } from '../../src/recording/recording-format.js';
import { recordingCacheSettings, type RecordingCacheOptions, type RecordingCacheSettings } from './cache-settings.js';
import { CacheBuilder } from './cache-writer.js';
import { CacheReader } from './cache-reader.js';

export { CACHE_FORMAT_VERSION, CacheDamagedError, cacheKeyOf, cachePathFor, type CacheKey } from './cache-file.js';
export { CacheBuilder } from './cache-writer.js';
export { CacheReader } from './cache-reader.js';

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
    // not a recording (bad gzip, a line that does not decode): the caller's input is wrong, not the cache
    if (error instanceof RecordingFormatError) throw error;
  }
  if (!builder.finish()) return { file, status: 'skipped', reason: reasons.at(-1) ?? 'not cached' };
  return { file, status: 'built', path: builder.path, events: builder.events, bytes: statSync(builder.path).size };
}
