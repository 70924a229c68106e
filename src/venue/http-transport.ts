import http from 'node:http';
import https from 'node:https';
import got, { RequestError, type Got, type Request } from 'got';
import { DeadlineSweeper, type Cancellable } from './deadline-sweeper.js';
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
 *
 * Requests go through got's stream interface and the body is collected here (Exchange). got's promise
 * interface does the same request and then, per request, a cancelable promise, an event emitter that
 * re-emits the request's events, an async iterator over the body and a second pass over the finished
 * response: with the client benchmark's server that was a fifth to a quarter of the CPU of a round
 * trip. What got does on the wire (options, agents, decompression, errors) is the same either way.
 */
export class HttpTransport {
  private readonly got: Got;
  /**
   * `got` for signed POSTs: method and JSON content type are defaults, so a request merges only its
   * body and its own three headers. Its options are passed with `isStream` rather than through
   * `got.stream.post`, whose copy of the options made got's option merge measurably slower.
   */
  private readonly gotPost: Got;
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
    });
    this.deadlines = new DeadlineSweeper(options.timeoutMs);
    this.gotPost = this.got.extend({ method: 'POST', headers: { 'content-type': 'application/json' } });
  }

  get(path: string, endpoint: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      new Exchange(this.got(this.baseUrl + path, { isStream: true }), endpoint, this.deadlines, resolve, reject);
    });
  }

  post(path: string, body: string, headers: Readonly<Record<string, string>>, endpoint: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      new Exchange(this.gotPost(this.baseUrl + path, { body, headers, isStream: true }), endpoint, this.deadlines, resolve, reject);
    });
  }

  close(): void {
    this.deadlines.stop();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/**
 * One request in flight, read off got's stream: settles its promise once, with the status and the
 * whole body as text (utf-8, decoded after the last chunk), with a transport error, or, when the
 * deadline sweeper calls it off, with a TimeoutError. A class rather than closures in an object
 * literal: tsx names every such closure with Object.defineProperty, on every request.
 */
class Exchange implements Cancellable {
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly request: Request,
    private readonly endpoint: string,
    private readonly deadlines: DeadlineSweeper,
    private readonly resolve: (res: RawResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    deadlines.watch(this);
    request.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
    });
    request.once('end', () => this.end());
    // `on`, not `once`: an 'error' without a listener would crash the process
    request.on('error', (error: unknown) => {
      if (!this.deadlines.settle(this)) this.reject(toTransportError(error, this.endpoint)); // else already rejected as late
    });
  }

  /** Called by the deadline sweeper. destroy() without an error emits no 'error': the rejection is ours. */
  cancel(): void {
    this.request.destroy();
    this.reject(lateError(this.endpoint, this.deadlines.timeoutMs));
  }

  private end(): void {
    this.deadlines.settle(this);
    const { request, chunks } = this;
    // the body ends only after got has taken the response in, so it is there
    const status = request.response?.statusCode ?? 0;
    // what got's promise interface does once the body is read: got drops its own listeners
    request.destroy();
    this.resolve({ status, text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8') });
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
