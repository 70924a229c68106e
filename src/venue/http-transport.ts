import http from 'node:http';
import https from 'node:https';
import got, { RequestError, type Got } from 'got';
import { NetworkError, TimeoutError, type VenueError } from './errors.js';

/** One HTTP answer, body as text (the caller decides whether it is JSON). */
export interface RawResponse {
  readonly status: number;
  readonly text: string;
}

export interface HttpTransportOptions {
  readonly baseUrl: string;
  /** Whole-request timeout in ms. */
  readonly timeoutMs: number;
}

const notSent = new WeakSet<object>();

/**
 * True only for a failure where the request cannot have reached the venue (refused connection, DNS
 * failure, timeout while connecting): the only network failures after which an order creation is
 * known not to have happened.
 */
export function wasCertainlyNotSent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && notSent.has(error);
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const NOT_SENT_TIMEOUT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);

/**
 * got@14 with keep-alive agents, no retries and no thrown HTTP errors: retry policy and status mapping
 * belong to the client, which knows which endpoint may be repeated.
 */
export class HttpTransport {
  private readonly got: Got;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  readonly baseUrl: string;

  constructor(options: HttpTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // free sockets are dropped before node's default 5 s server keep-alive timeout closes them under us
    this.httpAgent = new http.Agent({ keepAlive: true, timeout: 4000 });
    this.httpsAgent = new https.Agent({ keepAlive: true, timeout: 4000 });
    this.got = got.extend({
      agent: { http: this.httpAgent, https: this.httpsAgent },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
      timeout: { request: options.timeoutMs },
    });
  }

  async get(path: string, endpoint: string): Promise<RawResponse> {
    try {
      const res = await this.got.get(this.baseUrl + path);
      return { status: res.statusCode, text: res.body };
    } catch (error) {
      throw toTransportError(error, endpoint);
    }
  }

  async post(path: string, body: string, headers: Readonly<Record<string, string>>, endpoint: string): Promise<RawResponse> {
    try {
      const res = await this.got.post(this.baseUrl + path, { body, headers: { 'content-type': 'application/json', ...headers } });
      return { status: res.statusCode, text: res.body };
    } catch (error) {
      throw toTransportError(error, endpoint);
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/**
 * got's errors carry the request options (auth headers, payload, body) in `options`; the cause kept
 * here is a fresh Error with only the message and code, so no secret travels with a VenueError.
 */
function toTransportError(error: unknown, endpoint: string): VenueError {
  const code = error instanceof RequestError ? error.code : 'ERR_UNKNOWN';
  const message = error instanceof Error ? error.message : String(error);
  const cause = Object.assign(new Error(message), { code });
  if (error instanceof RequestError && error.name === 'TimeoutError') {
    const event = (error as RequestError & { event?: string }).event ?? '';
    const e = new TimeoutError(`${endpoint}: no answer in time (${message})`, { endpoint, cause });
    if (NOT_SENT_TIMEOUT_EVENTS.has(event)) notSent.add(e);
    return e;
  }
  const e = new NetworkError(`${endpoint}: network failure ${code} (${message})`, { endpoint, cause });
  if (NOT_SENT_CODES.has(code)) notSent.add(e);
  return e;
}
