import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { HEADERS, TOO_MANY_REQUESTS_TEXT, type Dialect, type RateBucket, type RateLimit } from '../../venue/wire.js';
import type { SimExchange } from '../exchange.js';
import { authenticate } from './auth.js';
import { BookCache } from './book-cache.js';
import { TradeTape } from './trade-tape.js';
import { NOT_FOUND, UNAVAILABLE, type SimReply } from './error-bodies.js';
import { FaultInjector, type FaultConfig, type FaultPlan } from './faults.js';
import { garbageAnswer } from './garbage-answers.js';
import { lyingExchange } from './lying-view.js';
import { VenueLies } from './venue-lies.js';
import { NonceCheck } from './nonce-check.js';
import { RateWindow } from './rate-window.js';
import type { RouteContext } from './route-context.js';
import { matchRoute } from './router.js';
import { SimStats, type Arrival } from './sim-stats.js';

/**
 * The simulated exchange's HTTP front (node:http, no framework). Per request: route → rate window
 * (per API key for private endpoints, per remote address for public ones) → fault plan → auth →
 * handler → answer, or a dropped socket when a fault says so. Everything the server saw is in `stats`.
 */
export interface SimServerOptions {
  readonly exchange: SimExchange;
  /** Answer spelling (exchange-facts §8); requests are read in both. Default `contract`. */
  readonly dialect?: Dialect | undefined;
  /** Partial overrides of RATE_LIMITS (tests only; the defaults are the venue's table). */
  readonly rateLimits?: Partial<Record<RateBucket, Partial<RateLimit>>> | undefined;
  readonly faults?: FaultConfig | undefined;
  /** Server time in Unix ms (nonce window, rate windows, cache). Default `Date.now`. */
  readonly clock?: (() => number) | undefined;
  /**
   * Called once per request after it was answered (or dropped): for an access log. It gets no body
   * and no header but the public API key, so nothing secret (signatures, created codes) can leak.
   */
  readonly onRequest?: ((entry: AccessEntry) => void) | undefined;
}

export interface AccessEntry {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  /** Public API key (private endpoints) or remote address. */
  readonly client: string;
  /** 0 = connection dropped by fault injection. */
  readonly status: number;
  readonly venueCode?: number | undefined;
  readonly ms: number;
}

export interface SimServer {
  readonly server: Server;
  readonly stats: SimStats;
  /** The fault injector (e.g. to turn faults off before a final reconciliation). */
  readonly faults: FaultInjector;
  /** The lying venue's controls (episodes, hidden orders, `setEnabled`); inert unless configured or driven. */
  readonly lies: VenueLies;
}

/** Largest private body accepted; the venue's bodies are a few hundred bytes. */
const MAX_BODY_BYTES = 1 << 20;

export function createSimServer(options: SimServerOptions): SimServer {
  const clock = options.clock ?? Date.now;
  const dialect = options.dialect ?? 'contract';
  const stats = new SimStats();
  const rates = new RateWindow(options.rateLimits);
  const faults = new FaultInjector(options.faults);
  const lies = new VenueLies(options.faults?.lies, options.faults?.seed ?? 1, clock);
  const nonces = new NonceCheck();
  const bookCache = new BookCache();
  const exchange = options.exchange;
  const tradeTape = new TradeTape(exchange);

  const log = (req: IncomingMessage, arrival: Arrival, venueCode: number | undefined): void => {
    if (options.onRequest === undefined) return;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    options.onRequest({ method: req.method ?? '', path, endpoint: arrival.endpoint, client: arrival.client, status: arrival.status, venueCode, ms: clock() - arrival.at });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    if (rawBody === undefined) {
      res.destroy();
      return;
    }
    // Arrival = the whole request received; taken after the body so the log is in admission order.
    const arrivedAt = clock();
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const match = matchRoute(req.method ?? 'GET', url.pathname);
    const address = req.socket.remoteAddress ?? 'unknown';
    if (match === undefined) {
      const arrival = stats.arrive('unknown', address, arrivedAt);
      write(res, NOT_FOUND);
      stats.answered(arrival, 404, undefined);
      log(req, arrival, undefined);
      return;
    }
    const { route } = match;
    const apiKey = req.headers[HEADERS.apiKey];
    const client = route.kind === 'private' && typeof apiKey === 'string' && apiKey !== '' ? apiKey : address;
    const arrival = stats.arrive(route.endpoint, client, arrivedAt);
    if (!rates.admit(client, route.endpoint, arrivedAt)) {
      write(res, { status: 429, text: TOO_MANY_REQUESTS_TEXT });
      stats.answered(arrival, 429, undefined);
      log(req, arrival, undefined);
      return;
    }
    const plan = faults.plan(route.endpoint);
    for (const label of plan.labels ?? []) stats.fault(route.endpoint, label);
    if (plan.tooMany) {
      write(res, { status: 429, text: TOO_MANY_REQUESTS_TEXT });
      stats.answered(arrival, 429, undefined);
      log(req, arrival, undefined);
      return;
    }
    if (plan.delayMs > 0) await sleep(plan.delayMs);
    let reply: SimReply;
    // the lies told in this answer, counted once each like the faults
    const told = new Set<string>();
    if (plan.fail5xx) reply = UNAVAILABLE;
    else {
      const nowMs = clock();
      const lying = lies.armed;
      const view = lying ? lyingExchange(exchange, lies, nowMs, (label) => told.add(label)) : exchange;
      const ctx: RouteContext = { exchange: view, dialect, nowMs, bookCache, tradeTape };
      if (lying && route.endpoint === 'orderbook' && match.market !== undefined && exchange.markets.has(match.market) && lies.bookOutage(match.market, nowMs, (label) => told.add(label))) {
        reply = UNAVAILABLE;
      } else if (route.kind === 'public') reply = route.handle(ctx, { market: match.market, query: url.searchParams });
      else {
        const auth = authenticate({ headers: req.headers, rawBody, path: url.pathname, nowMs: ctx.nowMs }, (key) => exchange.accountByKey(key), nonces);
        reply = auth.ok ? route.handle(ctx, auth.account, auth.body) : auth.reply;
      }
    }
    for (const label of told) stats.fault(route.endpoint, label);
    // A dropped answer after the venue acted: the client cannot know whether the order exists.
    if (plan.drop && !plan.fail5xx && reply.status < 400) {
      stats.answered(arrival, 0, undefined);
      res.socket?.destroy();
      log(req, arrival, undefined);
      return;
    }
    if (plan.garbage !== undefined) {
      await writeGarbage(res, plan, reply, () => faults.draw());
      stats.answered(arrival, 200, undefined);
      log(req, arrival, undefined);
      return;
    }
    write(res, reply);
    stats.answered(arrival, reply.status, venueCode(reply));
    log(req, arrival, venueCode(reply));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in a handler must not take the sim down; answer like an unavailable venue.
      process.stderr.write(`sim: internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}\n`);
      if (!res.headersSent) write(res, { status: 500, text: 'Internal Server Error' });
      else res.destroy();
    });
  });
  server.once('close', () => tradeTape.close());
  return { server, stats, faults, lies };
}

/** The venue acted (or refused); the client gets garbage instead of the answer (malformed-venue mode). */
async function writeGarbage(res: ServerResponse, plan: FaultPlan, reply: SimReply, random: () => number): Promise<void> {
  const answer = garbageAnswer(plan.garbage!, reply.text ?? reply.body, random);
  res.on('error', () => {}); // a client that gave up on a drip closes the socket under us
  res.writeHead(answer.status, answer.contentType !== undefined ? { 'content-type': answer.contentType } : {});
  if (plan.garbage !== 'drip' || answer.text.length === 0) {
    res.end(answer.text);
    return;
  }
  // a slow drip: the body a few bytes at a time, spread over dripMs
  const bytes = Buffer.from(answer.text);
  const pieces = Math.min(bytes.length, 40);
  const step = Math.ceil(bytes.length / pieces);
  const pause = Math.max(1, Math.round((plan.dripMs ?? 0) / pieces));
  for (let at = 0; at < bytes.length && !res.destroyed; at += step) {
    res.write(bytes.subarray(at, at + step));
    await sleep(pause);
  }
  res.end();
}

function write(res: ServerResponse, reply: SimReply): void {
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(reply.text);
  } else if (reply.body === undefined) {
    res.writeHead(reply.status, { 'content-length': '0' });
    res.end();
  } else {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  }
}

function venueCode(reply: SimReply): number | undefined {
  const body = reply.body as { code?: unknown } | undefined;
  return body !== undefined && body !== null && typeof body.code === 'number' ? body.code : undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
