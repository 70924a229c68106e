import http from 'node:http';
import https from 'node:https';
import got, { RequestError, type CancelableRequest, type Got, type Response } from 'got';
import { DeadlineSweeper } from './deadline-sweeper.js';
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

/**
 * The keep-alive agents' settings; exported so the client benchmark's bare baseline uses the very same.
 * Free sockets are dropped before node's default 5 s server keep-alive timeout closes them under us.
 */
export const KEEP_ALIVE_AGENT_OPTIONS: Readonly<http.AgentOptions> = { keepAlive: true, timeout: 4000 };

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
  /** `got` with the JSON content type as a default header, so a signed POST merges only its own three. */
  private readonly gotJson: Got;
  /** The whole-request timeout: one coarse timer for all requests instead of got's timers and listeners per request. */
  private readonly deadlines: DeadlineSweeper;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  readonly baseUrl: string;

  constructor(options: HttpTransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.httpAgent = new http.Agent(KEEP_ALIVE_AGENT_OPTIONS);
    this.httpsAgent = new https.Agent(KEEP_ALIVE_AGENT_OPTIONS);
    this.got = got.extend({
      agent: { http: this.httpAgent, https: this.httpsAgent },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
    });
    this.deadlines = new DeadlineSweeper(options.timeoutMs);
    this.gotJson = this.got.extend({ headers: { 'content-type': 'application/json' } });
  }

  get(path: string, endpoint: string): Promise<RawResponse> {
    return this.settle(this.got.get(this.baseUrl + path), endpoint);
  }

  post(path: string, body: string, headers: Readonly<Record<string, string>>, endpoint: string): Promise<RawResponse> {
    return this.settle(this.gotJson.post(this.baseUrl + path, { body, headers }), endpoint);
  }

  /** Not an async function: one promise fewer per request. */
  private settle(request: CancelableRequest<Response<string>>, endpoint: string): Promise<RawResponse> {
    this.deadlines.watch(request);
    return request.then(
      (res): RawResponse => {
        this.deadlines.settle(request);
        return { status: res.statusCode, text: res.body };
      },
      (error: unknown) => {
        throw this.deadlines.settle(request) ? lateError(endpoint, this.deadlines.timeoutMs) : toTransportError(error, endpoint);
      },
    );
  }

  close(): void {
    this.deadlines.stop();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** A request called off by the deadline sweeper: it may well have reached the venue. */
function lateError(endpoint: string, timeoutMs: number): TimeoutError {
  const cause = Object.assign(new Error(`no complete answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
  return new TimeoutError(`${endpoint}: no answer in time (${cause.message})`, { endpoint, cause });
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
