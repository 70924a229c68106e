import type { IncomingHttpHeaders } from 'node:http';
import { HEADERS, TOO_MANY_REQUESTS_TEXT, type Dialect, type RateBucket, type RateLimit } from '../../venue/wire.js';
import type { SimExchange } from '../exchange.js';
import { authenticate } from './auth.js';
import { BookCache } from './book-cache.js';
import { TradeTape } from './trade-tape.js';
import { NOT_FOUND, UNAVAILABLE, type SimReply } from './error-bodies.js';
import { FaultInjector, type FaultConfig, type FaultPlan } from './faults.js';
import { lyingExchange } from './lying-view.js';
import { VenueLies } from './venue-lies.js';
import { NonceCheck } from './nonce-check.js';
import { RateWindow } from './rate-window.js';
import type { RouteContext } from './route-context.js';
import { matchRoute } from './router.js';
import { SimStats, type Arrival } from './sim-stats.js';

/**
 * The simulated exchange's request handling without the socket: route → rate window (per API key for private
 * endpoints, per remote address for public ones) → fault plan → auth → handler → answer. The HTTP server
 * (server.ts) feeds it what arrived on the wire; a test can feed it requests in-process, on a virtual clock, and
 * get the same answers, statistics, faults and lies.
 */
export interface SimHandlerOptions {
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

/** One whole request as it arrived. */
export interface SimRequest {
  readonly method: string;
  /** Path and query, as in the request line. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  readonly remoteAddress: string;
}

/** How an answer leaves: written, the connection dropped after the venue acted, or garbage (malformed-venue mode). */
export interface SimResponder {
  reply(reply: SimReply): void;
  drop(): void;
  garbage(plan: FaultPlan, reply: SimReply, random: () => number): Promise<void>;
}

export interface SimHandler {
  /** Handles one request and answers it through `responder`; settles once it was answered. */
  handle(request: SimRequest, responder: SimResponder): Promise<void>;
  readonly stats: SimStats;
  /** The fault injector (e.g. to turn faults off before a final reconciliation). */
  readonly faults: FaultInjector;
  /** The lying venue's controls (episodes, hidden orders, `setEnabled`); inert unless configured or driven. */
  readonly lies: VenueLies;
  /** Stops following the exchange's trades (the trades endpoint's tape). */
  close(): void;
}

export function createSimHandler(options: SimHandlerOptions): SimHandler {
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

  const log = (req: SimRequest, arrival: Arrival, venueCode: number | undefined): void => {
    if (options.onRequest === undefined) return;
    const path = req.url.split('?')[0] ?? '/';
    options.onRequest({
      method: req.method,
      path,
      endpoint: arrival.endpoint,
      client: arrival.client,
      status: arrival.status,
      venueCode,
      ms: clock() - arrival.at,
    });
  };

  const handle = async (req: SimRequest, res: SimResponder): Promise<void> => {
    // Arrival = the whole request received; taken after the body so the log is in admission order.
    const arrivedAt = clock();
    const url = new URL(req.url, 'http://sim.invalid');
    const match = matchRoute(req.method, url.pathname);
    const address = req.remoteAddress;
    if (match === undefined) {
      const arrival = stats.arrive('unknown', address, arrivedAt);
      res.reply(NOT_FOUND);
      stats.answered(arrival, 404, undefined);
      log(req, arrival, undefined);
      return;
    }
    const { route } = match;
    const apiKey = req.headers[HEADERS.apiKey];
    const client = route.kind === 'private' && typeof apiKey === 'string' && apiKey !== '' ? apiKey : address;
    const arrival = stats.arrive(route.endpoint, client, arrivedAt);
    if (!rates.admit(client, route.endpoint, arrivedAt)) {
      res.reply({ status: 429, text: TOO_MANY_REQUESTS_TEXT });
      stats.answered(arrival, 429, undefined);
      log(req, arrival, undefined);
      return;
    }
    const plan = faults.plan(route.endpoint);
    for (const label of plan.labels ?? []) stats.fault(route.endpoint, label);
    if (plan.tooMany) {
      res.reply({ status: 429, text: TOO_MANY_REQUESTS_TEXT });
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
      if (
        lying &&
        route.endpoint === 'orderbook' &&
        match.market !== undefined &&
        exchange.markets.has(match.market) &&
        lies.bookOutage(match.market, nowMs, (label) => told.add(label))
      ) {
        reply = UNAVAILABLE;
      } else if (route.kind === 'public') reply = route.handle(ctx, { market: match.market, query: url.searchParams });
      else {
        const auth = authenticate(
          { headers: req.headers, rawBody: req.rawBody, path: url.pathname, nowMs: ctx.nowMs },
          (key) => exchange.accountByKey(key),
          nonces,
        );
        reply = auth.ok ? route.handle(ctx, auth.account, auth.body) : auth.reply;
      }
    }
    for (const label of told) stats.fault(route.endpoint, label);
    // A dropped answer after the venue acted: the client cannot know whether the order exists.
    if (plan.drop && !plan.fail5xx && reply.status < 400) {
      stats.answered(arrival, 0, undefined);
      res.drop();
      log(req, arrival, undefined);
      return;
    }
    if (plan.garbage !== undefined) {
      await res.garbage(plan, reply, () => faults.draw());
      stats.answered(arrival, 200, undefined);
      log(req, arrival, undefined);
      return;
    }
    res.reply(reply);
    stats.answered(arrival, reply.status, venueCode(reply));
    log(req, arrival, venueCode(reply));
  };

  return { handle, stats, faults, lies, close: () => tradeTape.close() };
}

function venueCode(reply: SimReply): number | undefined {
  const body = reply.body as { code?: unknown } | undefined;
  return body !== undefined && body !== null && typeof body.code === 'number' ? body.code : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
