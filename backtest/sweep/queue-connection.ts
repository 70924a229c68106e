/**
 * Redis connections for BullMQ from a `redis://HOST:PORT[/DB]` URL. BullMQ's ESM build cannot load ioredis by
 * itself, so clients are made here (ioredis, BullMQ's own driver) and closed by whoever made them.
 */
import { Redis } from 'ioredis';
import { BotError, ConfigError } from '../../src/model/errors.js';

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

/** Redis cannot be reached (the sweep cannot queue its trials). */
export class QueueUnavailableError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_QUEUE_UNAVAILABLE', cause });
  }
}

export interface RedisClientOptions {
  /** Called with connection errors (ioredis retries by itself); default: ignored, they surface as timeouts. */
  readonly onError?: (e: Error) => void;
  /** When it returns true, ioredis stops reconnecting (also in the copies BullMQ makes with duplicate()). */
  readonly giveUp?: () => boolean;
}

export function redisClient(url: string, o: RedisClientOptions = {}): Redis {
  // maxRetriesPerRequest null: BullMQ's blocking commands must wait out reconnects instead of failing.
  const client = new Redis(checkRedisUrl(url), {
    maxRetriesPerRequest: null,
    lazyConnect: false,
    retryStrategy: (times) => (o.giveUp?.() ? null : Math.min(200 * times, 2000)),
  });
  // Without a listener ioredis prints every failed reconnect to the console.
  client.on('error', (e: Error) => o.onError?.(e));
  return client;
}

/** Resolves when `ready` does, or rejects after `ms` naming the URL and the last connection error. */
export async function readyWithin(ready: Promise<unknown>, url: string, ms: number, lastError: () => Error | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = lastError();
      reject(new QueueUnavailableError(`cannot reach Redis at ${url} within ${ms / 1000} s${e ? `: ${e.message}` : ''}`, e));
    }, ms);
  });
  try {
    await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
