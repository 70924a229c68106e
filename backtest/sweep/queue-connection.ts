/**
 * Redis connections for BullMQ from a `redis://HOST:PORT[/DB]` URL. BullMQ's ESM build cannot load ioredis by
 * itself, so clients are made here (ioredis, BullMQ's own driver) and closed by whoever made them.
 */
import { Redis } from 'ioredis';
import { ConfigError } from '../../src/model/errors.js';

/** The queue every sweep's trials go through (jobs are identified by trial key, so sweeps can share it). */
export const QUEUE_NAME = 'bot-sweep-trials';

export function checkRedisUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigError(`--queue ${url}: expected redis://HOST:PORT`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new ConfigError(`--queue ${url}: expected redis://HOST:PORT (got ${u.protocol})`);
  return url;
}

export function redisClient(url: string): Redis {
  // maxRetriesPerRequest null: BullMQ's blocking commands must wait out reconnects instead of failing.
  return new Redis(checkRedisUrl(url), { maxRetriesPerRequest: null, lazyConnect: false });
}
