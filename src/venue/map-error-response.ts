import {
  AuthError,
  InnerValidationError,
  MalformedResponseError,
  NonceError,
  PublicApiError,
  RateLimitedError,
  RequestValidationError,
  UnavailableError,
  type VenueError,
  type VenueErrorContext,
} from './errors.js';

/**
 * How an endpoint family words its failures (exchange-facts §4): order endpoints answer 422 for a
 * bad request and 400 for a business refusal; main-account endpoints the other way round.
 */
export type ErrorFamily = 'public' | 'trading' | 'mainAccount';

type ErrorMap = Record<string, string[]>;

const AUTH_MESSAGES = new Set(['Payload not provided.', 'Invalid payload.', 'Unauthorized request.', 'Request not provided.']);

function isErrorMap(v: unknown): v is ErrorMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((m) => Array.isArray(m) && m.every((s) => typeof s === 'string'));
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Turns a non-2xx answer into the matching VenueError. Pure. The body text is never copied into the error. */
export function mapErrorResponse(status: number, text: string, endpoint: string, family: ErrorFamily): VenueError {
  const base: VenueErrorContext = { endpoint, status };
  if (status === 429) return new RateLimitedError(`${endpoint}: rate limited by the venue (HTTP 429)`, base);
  const parsed = tryJson(text);
  const body = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined;

  if (status >= 500) {
    const detail = typeof body?.message === 'string' ? `: ${body.message}` : '';
    return new UnavailableError(`${endpoint}: venue unavailable (HTTP ${status})${detail}`, {
      ...base,
      ...(typeof body?.code === 'number' ? { venueCode: body.code } : {}),
    });
  }
  if (status === 404 && body === undefined) {
    const msg = `${endpoint}: no such endpoint at the venue (HTTP 404)`;
    return family === 'public' ? new PublicApiError(msg, base) : new RequestValidationError(msg, base);
  }
  if (body === undefined) {
    return new MalformedResponseError(`${endpoint}: HTTP ${status} with a body that is not a JSON object`, base);
  }

  // private error body {code, message, errors}
  if (typeof body.code === 'number' && typeof body.message === 'string') {
    const errors = isErrorMap(body.errors) ? body.errors : {};
    const ctx: VenueErrorContext = { ...base, venueCode: body.code, errors };
    const message = body.message;
    const text = `${endpoint}: ${message}`;
    // "Too many requests." with HTTP 400 is the nonce rule, not rate limiting (exchange-facts §1)
    if (message === 'Too many requests.' || /nonce/i.test(message)) return new NonceError(text, ctx);
    if (status === 401 || status === 403 || AUTH_MESSAGES.has(message)) return new AuthError(text, ctx);
    if (family === 'public') return new PublicApiError(text, ctx);
    const innerStatus = family === 'trading' ? 400 : 422;
    return status === innerStatus ? new InnerValidationError(text, ctx) : new RequestValidationError(text, ctx);
  }
  // contract public error body {success:false, message, params}
  if (body.success === false && typeof body.message === 'string') {
    return new PublicApiError(`${endpoint}: ${body.message}`, base);
  }
  // live venue's public validation answer: a flat {field: [messages]}
  if (isErrorMap(body) && Object.keys(body).length > 0) {
    const first = Object.values(body)[0]?.[0] ?? 'validation failed';
    const ctx = { ...base, errors: body };
    return family === 'public' ? new PublicApiError(`${endpoint}: ${first}`, ctx) : new RequestValidationError(`${endpoint}: ${first}`, ctx);
  }
  if (status === 401 || status === 403) return new AuthError(`${endpoint}: not authorised (HTTP ${status})`, base);
  return new MalformedResponseError(`${endpoint}: HTTP ${status} with an error body of unknown shape`, base);
}
