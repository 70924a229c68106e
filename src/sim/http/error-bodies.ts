import type { PrivateErrorBody, PublicErrorBody } from '../../venue/wire.js';

/**
 * The exact error bodies the venue answers with (exchange-facts §1, §4, §6), so every route and
 * the auth step answer a failure the same way. A `SimReply` is what a handler returns; the server
 * writes it (JSON unless `text` is set).
 */
export interface SimReply {
  readonly status: number;
  /** JSON body; undefined = empty body (the 404 of an unknown route). */
  readonly body?: unknown;
  /** Plain-text body instead of JSON (429, 503). */
  readonly text?: string;
  /** Set by the order routes when the venue acted (an order was accepted): the fault layer may drop the answer. */
  readonly accepted?: boolean;
}

export function json(status: number, body: unknown, accepted = false): SimReply {
  return { status, body, accepted };
}

export function privateError(status: number, code: number, message: string, errors: Record<string, string[]> = {}): SimReply {
  const body: PrivateErrorBody = { code, message, errors };
  return { status, body };
}

/** 422 request validation of the order endpoints: `code` is the first violation's. */
export function validationFailed(status: number, code: number, errors: Record<string, string[]>): SimReply {
  return privateError(status, code, 'Validation failed', errors);
}

export function innerValidationFailed(status: number, code: number, errors: Record<string, string[]>): SimReply {
  return privateError(status, code, 'Inner validation failed', errors);
}

/**
 * Authentication failures, worded and numbered exactly as exchange-facts §1. The permission row
 * (403) only concerns the investments endpoint here, which words it as §4 says (below).
 */
export const AUTH_ERRORS = {
  payloadMissing: () => privateError(401, 0, 'Payload not provided.'),
  invalidPayload: () => privateError(400, 9, 'Invalid payload.'),
  unauthorized: () => privateError(401, 10, 'Unauthorized request.'),
  nonceMissing: () => privateError(400, 0, 'Nonce not provided.'),
  nonceNotIncreasing: () => privateError(400, 0, 'Too many requests.'),
  nonceOutOfWindow: () => privateError(400, 0, 'Your nonce is more than 5 seconds lesser than the current nonce'),
  requestMissing: () => privateError(400, 0, 'Request not provided.'),
} as const;

/** The investments endpoint's own 403 wording (exchange-facts §4): it carries no `errors` key. */
export function investmentsForbidden(): SimReply {
  return {
    status: 403,
    body: { code: 0, message: "You don't have permission to use this endpoint. Please contact support for more details" },
  };
}

/** Public validation error: the contract's `{success,message,params}` or the live venue's flat map (exchange-facts §8). */
export function publicError(dialect: 'contract' | 'exchange', field: string, message: string): SimReply {
  if (dialect === 'exchange') return { status: 422, body: { [field]: [message] } };
  const body: PublicErrorBody = { success: false, message, params: [] };
  return { status: 422, body };
}

export const NOT_FOUND: SimReply = { status: 404 };
export const UNAVAILABLE: SimReply = { status: 503, text: 'Service Unavailable' };
