import { BotError } from '../model/errors.js';

/** Where a venue failure happened. Never holds the secret, the payload or a created code. */
export interface VenueErrorContext {
  /** Endpoint path, e.g. `/api/v4/order/new`. */
  readonly endpoint: string;
  /** HTTP status, when a response came. */
  readonly status?: number;
  /** The venue's numeric `code`, when the body had one. */
  readonly venueCode?: number;
  /** The venue's `errors` map (parameter → messages). */
  readonly errors?: Readonly<Record<string, readonly string[]>>;
  readonly cause?: unknown;
}

/** Base of every failure of a venue call. `code` is stable (ERR_VENUE_*). */
export class VenueError extends BotError {
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly venueCode: number | undefined;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** True when the venue definitely did not act on the request (safe to treat as rejected). */
  readonly rejected: boolean;

  constructor(message: string, code: string, ctx: VenueErrorContext, rejected = false) {
    super(message, { code, cause: ctx.cause });
    this.endpoint = ctx.endpoint;
    this.status = ctx.status;
    this.venueCode = ctx.venueCode;
    this.errors = ctx.errors ?? {};
    this.rejected = rejected;
  }
}

/** 422 on order endpoints (codes 30-37), 400 on codes/investments: the request itself is invalid. */
export class RequestValidationError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_VALIDATION', ctx, true);
  }
}

/** Business ("inner") validation: e.g. code 10 not enough balance, code 2 order not found. */
export class InnerValidationError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_INNER_VALIDATION', ctx, true);
  }
}

/** 401/403 and the other authentication failures of exchange-facts §1 (payload, signature, permission). */
export class AuthError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_AUTH', ctx, true);
  }
}

/** Nonce not increasing / outside the window. Body says "Too many requests." but this is NOT rate limiting. */
export class NonceError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_NONCE', ctx, true);
  }
}

/** HTTP 429 with a plain-text body. The request was not executed. */
export class RateLimitedError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_RATE_LIMITED', ctx, true);
  }
}

/** Public endpoint error body (`{success:false,message,params}` or the live 422 flat map), or 404. */
export class PublicApiError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_PUBLIC', ctx, true);
  }
}

/** 503 / non-JSON 5xx: maintenance or overload. For order creation the outcome may still be unknown. */
export class UnavailableError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_UNAVAILABLE', ctx);
  }
}

/** Connection refused/reset, DNS, socket hang up. */
export class NetworkError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_NETWORK', ctx);
  }
}

/** The request timed out. */
export class TimeoutError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_TIMEOUT', ctx);
  }
}

/**
 * The venue did not answer, or answered that it could not serve (no connection, a timeout, a 503): a read may be
 * repeated, an order's outcome is unknown, and the venue counts as unreachable (the daemon's readiness and alerts).
 */
export function notReached(error: unknown): boolean {
  return error instanceof NetworkError || error instanceof TimeoutError || error instanceof UnavailableError;
}

/** A response that is not JSON, or JSON of the wrong shape. */
export class MalformedResponseError extends VenueError {
  constructor(message: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_MALFORMED', ctx);
  }
}

/**
 * An order-creating request may have reached the venue but no usable answer came (connection dropped,
 * timeout, 5xx, malformed body). Never resubmit: reconcile by `clientOrderId` through open orders / deals.
 */
export class OutcomeUnknownError extends VenueError {
  readonly clientOrderId: string;

  constructor(message: string, clientOrderId: string, ctx: VenueErrorContext) {
    super(message, 'ERR_VENUE_OUTCOME_UNKNOWN', ctx);
    this.clientOrderId = clientOrderId;
  }
}

/**
 * A bulk order request may have reached the venue but no usable answer came: every order in it is in doubt.
 * Never resubmit: reconcile each by its client order id (`clientOrderIds`, in request order).
 */
export class BulkOutcomeUnknownError extends OutcomeUnknownError {
  readonly clientOrderIds: readonly string[];

  constructor(message: string, clientOrderIds: readonly string[], ctx: VenueErrorContext) {
    super(message, clientOrderIds.join(','), ctx);
    this.clientOrderIds = clientOrderIds;
  }
}
