import type { Dialect, EndpointName } from '../../venue/wire.js';
import type { SimExchange } from '../exchange.js';
import type { SimReply } from './error-bodies.js';
import type { BookCache } from './book-cache.js';
import type { TradeTape } from './trade-tape.js';

/** What every route handler sees: the in-process exchange, the answer dialect and server time. */
export interface RouteContext {
  readonly exchange: SimExchange;
  readonly dialect: Dialect;
  /** Server time of the request's arrival, Unix ms. */
  readonly nowMs: number;
  readonly bookCache: BookCache;
  /** The recent public trades per market (the trades endpoint); the server always gives one (optional for handler unit tests). */
  readonly tradeTape?: TradeTape;
}

export type SimAccountRef = NonNullable<ReturnType<SimExchange['accountByKey']>>;

export interface PublicRequest {
  /** The `{market}` path segment of the order book and trades routes. */
  readonly market?: string | undefined;
  readonly query: URLSearchParams;
}

export type PublicHandler = (ctx: RouteContext, req: PublicRequest) => SimReply;
export type PrivateHandler = (ctx: RouteContext, account: SimAccountRef, body: Record<string, unknown>) => SimReply;

export type Route =
  | { readonly kind: 'public'; readonly endpoint: EndpointName; readonly handle: PublicHandler }
  | { readonly kind: 'private'; readonly endpoint: EndpointName; readonly handle: PrivateHandler };
