import { ConfigError } from '../model/errors.js';
import { MalformedResponseError, RateLimitedError, VenueError } from './errors.js';
import { HttpTransport, type RawResponse } from './http-transport.js';
import type { VenueTransport } from './venue-transport.js';
import { countFailure, retryDelay, surfacedError, type CallPolicy, type RetryCount } from './retry-policy.js';
import { mapErrorResponse, type ErrorFamily } from './map-error-response.js';
import { NonceSource } from './nonce.js';
import type { BucketStats, RateLimiter } from './rate-limiter.js';
import { observeAttempt, type VenueCallObserver } from './call-observer.js';
import { leaseRateLimiter, nonceSourceFor, type LimiterLease } from './client-registry.js';
import { resolveRestClientOptions, type ResolvedRestClientOptions, type RestClientOptions } from './rest-client-options.js';
import { PayloadSigner } from './signing.js';
import { HEADERS, type EndpointName } from './wire.js';

/** One endpoint call: where, how to read the answer, and what may be repeated. */
export interface CallSpec<T> {
  readonly endpoint: EndpointName;
  readonly path: string;
  readonly family: ErrorFamily;
  readonly policy: CallPolicy;
  readonly parse: (raw: unknown, endpoint: string) => T;
  /** Private (signed POST) when fields are given; public GET otherwise. */
  readonly fields?: Record<string, unknown>;
  readonly query?: string;
  readonly clientOrderId?: string;
  /** For the call observer when the market is in the path rather than the fields. */
  readonly market?: string;
}

/** The count of a call before its first failure; shared, as counts are never changed in place. */
const NO_FAILURES: RetryCount = { retries: 0, rateLimited: 0, nonce: 0 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The machinery under RestClient: one endpoint call, signed when private, scheduled through the rate limiter,
 * retried as retry-policy.ts allows, its answer read into the spec's parsed type or a VenueError.
 */
export class VenueCaller {
  readonly options: ResolvedRestClientOptions;
  private readonly http: VenueTransport;
  private readonly nonces: NonceSource;
  private readonly limiter: RateLimiter | undefined;
  private readonly lease: LimiterLease | undefined;
  private readonly observer: VenueCallObserver | undefined;
  /** Signs with the secret's HMAC key states set up once (the secret itself stays in `options` only). */
  private readonly signer: PayloadSigner | undefined;

  constructor(options: RestClientOptions = {}) {
    this.options = resolveRestClientOptions(options);
    this.signer = this.options.apiSecret === undefined ? undefined : new PayloadSigner(this.options.apiSecret);
    this.http = options.transport ?? new HttpTransport({ baseUrl: this.options.baseUrl, timeoutMs: this.options.timeoutMs });
    this.nonces =
      options.clock !== undefined || this.options.apiKey === undefined
        ? new NonceSource({ now: options.clock ?? Date.now })
        : nonceSourceFor(this.options.apiKey);
    this.lease = options.rateLimiter === undefined ? leaseRateLimiter(this.options.baseUrl, this.options.apiKey) : undefined;
    this.limiter = options.rateLimiter === false ? undefined : (options.rateLimiter ?? this.lease?.limiter);
    this.observer = options.observer;
  }

  /** Queue depth, in-window count, limit and waiting time per rate-limit bucket. */
  limiterStats(): BucketStats[] {
    return this.limiter?.stats() ?? [];
  }

  /** Closes idle keep-alive sockets; the last client of a shared rate limiter closes it (its queued calls reject). */
  close(): void {
    this.lease?.release();
    this.http.close();
  }

  /** Calls one endpoint, retrying as the spec's policy allows (retry-policy.ts). */
  async call<T>(spec: CallSpec<T>): Promise<T> {
    let count: RetryCount = NO_FAILURES;
    for (;;) {
      const logger = this.options.logger;
      const started = logger === undefined ? 0 : performance.now();
      try {
        const result = this.limiter ? await this.limiter.schedule(spec.endpoint, () => this.attempt(spec)) : await this.attempt(spec);
        logger?.debug({ endpoint: spec.path, ms: Math.round(performance.now() - started), retries: count.retries }, 'venue call');
        return result;
      } catch (error) {
        if (!(error instanceof VenueError)) throw error;
        const delay = retryDelay(error, spec.policy, count, this.options.retry);
        if (delay === undefined) throw surfacedError(error, spec.policy, spec.path, spec.clientOrderId ?? '');
        count = countFailure(error, count);
        logger?.warn({ endpoint: spec.path, error: error.code, status: error.status, ...count, delayMs: Math.round(delay) }, 'venue call retried');
        if (delay > 0) {
          if (error instanceof RateLimitedError && this.limiter) this.limiter.pause(spec.endpoint, delay);
          else await sleep(delay);
        }
      }
    }
  }

  /** One attempt: send, then read. Not an async function (one promise fewer on every request); throws ConfigError synchronously. */
  private attempt<T>(spec: CallSpec<T>): Promise<T> {
    const observer = this.observer;
    if (observer === undefined) return this.send(spec).then((res) => this.read(spec, res));
    const market = spec.market ?? (typeof spec.fields?.market === 'string' ? spec.fields.market : undefined);
    return observeAttempt(
      observer,
      { endpoint: spec.endpoint, market },
      () => this.send(spec),
      (res) => this.read(spec, res),
    );
  }

  private send(spec: CallSpec<unknown>): Promise<RawResponse> {
    if (spec.fields === undefined) return this.http.get(spec.path + (spec.query ?? ''), spec.path);
    const { apiKey } = this.options;
    const signer = this.signer;
    if (apiKey === undefined || signer === undefined) {
      throw new ConfigError(`${spec.path} is private: the client needs apiKey and apiSecret (BOT_API_KEY / BOT_API_SECRET for the CLI)`);
    }
    // the nonce is taken right before sending so that send order follows nonce order as closely as possible
    const message: Record<string, unknown> = { request: spec.path, nonce: this.nonces.next() };
    if (this.options.nonceWindow) message.nonceWindow = true;
    for (const key in spec.fields) message[key] = spec.fields[key];
    const body = JSON.stringify(message);
    const { payload, signature } = signer.sign(body);
    return this.http.post(spec.path, body, { [HEADERS.apiKey]: apiKey, [HEADERS.payload]: payload, [HEADERS.signature]: signature }, spec.path);
  }

  private read<T>(spec: CallSpec<T>, res: RawResponse): T {
    if (res.status < 200 || res.status > 299) throw mapErrorResponse(res.status, res.text, spec.path, spec.family);
    let raw: unknown;
    try {
      raw = res.text === '' ? undefined : (JSON.parse(res.text) as unknown);
    } catch {
      throw new MalformedResponseError(`${spec.path}: HTTP ${res.status} with a body that is not JSON`, {
        endpoint: spec.path,
        status: res.status,
        // not the parser's own message: V8 quotes the body in it, and a body may hold a created code
        cause: new SyntaxError(`body of ${res.text.length} bytes is not valid JSON`),
      });
    }
    try {
      return spec.parse(raw, spec.path);
    } catch (error) {
      if (error instanceof MalformedResponseError) {
        throw new MalformedResponseError(error.message, { endpoint: spec.path, status: res.status, cause: error.cause });
      }
      throw error;
    }
  }
}
