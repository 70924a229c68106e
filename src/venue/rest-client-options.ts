import { ConfigError } from '../model/errors.js';
import type { MillisClock } from './nonce.js';
import type { RateLimiter } from './rate-limiter.js';
import type { VenueCallObserver } from './call-observer.js';
import type { VenueTransport } from './venue-transport.js';
import { BASE_URLS, type Dialect, type Region } from './wire.js';

/** pino-compatible subset; the client logs endpoint, status, attempt and timing, never bodies or headers. */
export interface VenueLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface RetryOptions {
  /** Retries after the first attempt, for the failures a call may repeat. Default 3. */
  readonly limit?: number;
  /** First backoff after a 429, ms; doubles per retry. Default 1000 (exchange-facts §2). */
  readonly rateLimitBaseMs?: number;
  /** First backoff after a network error or 5xx on a read, ms; doubles per retry. Default 250. */
  readonly networkBaseMs?: number;
  /** Cap of any backoff, ms. Default 30000. */
  readonly maxMs?: number;
  /** Random extra fraction of each delay. Default 0.2. */
  readonly jitter?: number;
}

export interface RestClientOptions {
  /** Any venue URL, e.g. the simulated exchange's `http://127.0.0.1:PORT`. Exclusive with `region`. */
  readonly baseUrl?: string;
  /** The live venue's main or regional address (BASE_URLS). Default `main` when `baseUrl` is absent. */
  readonly region?: Region;
  /** Field spelling to send: `contract` (snake_case ids, api-v4.md) or `exchange` (live camelCase). Default `contract`. Answers are read in both. */
  readonly dialect?: Dialect;
  /** Public API key. Required for private endpoints only. */
  readonly apiKey?: string;
  /** API secret; used to sign, never logged nor put into an error. Required for private endpoints only. */
  readonly apiSecret?: string;
  /** Send `nonceWindow: true` (nonce within ±5 s and unique instead of strictly increasing). Default false. */
  readonly nonceWindow?: boolean;
  /** Whole-request timeout, ms. Default 10000. */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  readonly logger?: VenueLogger;
  /**
   * The rate limiter to use. Default: the one limiter (over RATE_LIMITS) shared in the process by all
   * clients of the same base URL and key, since the venue counts per key. Pass one for other limits;
   * `false` disables limiting (benchmarks and tests that provoke 429 only).
   */
  readonly rateLimiter?: RateLimiter | false;
  /** Told about every attempt (endpoint, market, latency, status, error code): the daemon's metrics and venue health. */
  readonly observer?: VenueCallObserver;
  /** Wall clock for nonces (Unix ms). Default `Date.now` through the process-wide nonce source of the key (client-registry.ts). */
  readonly clock?: MillisClock;
  /** Where requests go. Default HTTP to `baseUrl` (HttpTransport); tests on virtual time pass an in-process simulated exchange. */
  readonly transport?: VenueTransport;
}

export interface ResolvedRestClientOptions {
  readonly baseUrl: string;
  readonly dialect: Dialect;
  readonly apiKey: string | undefined;
  readonly apiSecret: string | undefined;
  readonly nonceWindow: boolean;
  readonly timeoutMs: number;
  readonly retry: Required<RetryOptions>;
  readonly logger: VenueLogger | undefined;
}

function positive(name: string, value: number | undefined, fallback: number, integer = false): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    throw new ConfigError(`RestClient option ${name} must be a finite ${integer ? 'integer' : 'number'} >= 0, got ${String(value)}`);
  }
  return v;
}

/** Applies defaults and rejects bad options with a message naming the option and what was expected. */
export function resolveRestClientOptions(o: RestClientOptions): ResolvedRestClientOptions {
  if (o.baseUrl !== undefined && o.region !== undefined) {
    throw new ConfigError('RestClient options baseUrl and region exclude each other: give one');
  }
  if (o.region !== undefined && !(o.region in BASE_URLS)) {
    throw new ConfigError(`RestClient option region must be one of ${Object.keys(BASE_URLS).join(', ')}, got "${o.region}"`);
  }
  const baseUrl = o.baseUrl ?? BASE_URLS[o.region ?? 'main'];
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`RestClient option baseUrl must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`RestClient option baseUrl must use http or https, got "${url.protocol}"`);
  }
  if (url.search !== '' || url.hash !== '') throw new ConfigError('RestClient option baseUrl must not carry a query or fragment');
  const dialect = o.dialect ?? 'contract';
  if (dialect !== 'contract' && dialect !== 'exchange') {
    throw new ConfigError(`RestClient option dialect must be "contract" or "exchange", got "${String(dialect)}"`);
  }
  for (const [name, v] of [
    ['apiKey', o.apiKey],
    ['apiSecret', o.apiSecret],
  ] as const) {
    if (v !== undefined && (typeof v !== 'string' || v.length === 0)) throw new ConfigError(`RestClient option ${name} must be a non-empty string`);
  }
  const timeoutMs = positive('timeoutMs', o.timeoutMs, 10_000);
  if (timeoutMs === 0) throw new ConfigError('RestClient option timeoutMs must be > 0');
  const r = o.retry ?? {};
  const jitter = positive('retry.jitter', r.jitter, 0.2);
  if (jitter > 1) throw new ConfigError(`RestClient option retry.jitter must be within 0..1, got ${jitter}`);
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    dialect,
    apiKey: o.apiKey,
    apiSecret: o.apiSecret,
    nonceWindow: o.nonceWindow ?? false,
    timeoutMs,
    retry: {
      limit: positive('retry.limit', r.limit, 3, true),
      rateLimitBaseMs: positive('retry.rateLimitBaseMs', r.rateLimitBaseMs, 1000),
      networkBaseMs: positive('retry.networkBaseMs', r.networkBaseMs, 250),
      maxMs: positive('retry.maxMs', r.maxMs, 30_000),
      jitter,
    },
    logger: o.logger,
  };
}
