import { createHmac, timingSafeEqual } from 'node:crypto';
import { HEADERS } from '../../venue/wire.js';
import { AUTH_ERRORS, type SimReply } from './error-bodies.js';
import type { NonceCheck } from './nonce-check.js';

/**
 * Authentication of a private request exactly per exchange-facts §1. The checks run in the order
 * a gateway can make them: payload present; key known and signature right (HMAC-SHA512 of the
 * BASE64 payload string, lowercase hex, constant-time compare); body bytes equal the decoded
 * payload and are a JSON object; `request` equals the path called; nonce present and fresh.
 * Permissions are the route's business (the investments endpoint words its 403 differently).
 */
export interface AuthAccount {
  readonly id: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly partner: boolean;
}

export interface AuthRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly rawBody: Buffer;
  readonly path: string;
  readonly nowMs: number;
}

export type AuthResult<A extends AuthAccount> =
  | { readonly ok: true; readonly account: A; readonly body: Record<string, unknown> }
  | { readonly ok: false; readonly reply: SimReply };

export function authenticate<A extends AuthAccount>(req: AuthRequest, accountByKey: (apiKey: string) => A | undefined, nonces: NonceCheck): AuthResult<A> {
  const payload = header(req.headers, HEADERS.payload);
  if (payload === undefined || payload === '') return fail(AUTH_ERRORS.payloadMissing());

  const apiKey = header(req.headers, HEADERS.apiKey);
  const account = apiKey === undefined ? undefined : accountByKey(apiKey);
  const signature = header(req.headers, HEADERS.signature) ?? '';
  if (account === undefined || !signatureMatches(payload, signature, account.apiSecret)) return fail(AUTH_ERRORS.unauthorized());

  const decoded = decodeBase64Strict(payload);
  if (decoded === undefined || !decoded.equals(req.rawBody)) return fail(AUTH_ERRORS.invalidPayload());
  let body: unknown;
  try {
    body = JSON.parse(decoded.toString('utf8'));
  } catch {
    return fail(AUTH_ERRORS.invalidPayload());
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail(AUTH_ERRORS.invalidPayload());
  const fields = body as Record<string, unknown>;

  if (fields['request'] !== req.path) return fail(AUTH_ERRORS.requestMissing());

  const verdict = nonces.accept(account.apiKey, fields['nonce'], fields['nonceWindow'] === true, req.nowMs);
  if (verdict === 'missing') return fail(AUTH_ERRORS.nonceMissing());
  if (verdict === 'not-increasing') return fail(AUTH_ERRORS.nonceNotIncreasing());
  if (verdict === 'out-of-window') return fail(AUTH_ERRORS.nonceOutOfWindow());
  return { ok: true, account, body: fields };
}

/** Lowercase hex HMAC-SHA512 of the Base64 payload string, keyed with the secret's UTF-8 bytes. */
export function expectedSignature(payload: string, secret: string): string {
  return createHmac('sha512', secret).update(payload).digest('hex');
}

function signatureMatches(payload: string, signature: string, secret: string): boolean {
  const expected = Buffer.from(expectedSignature(payload, secret), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch reveals nothing about the secret.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Standard Base64 with padding; anything Node would silently repair (bad characters, no padding) is refused. */
function decodeBase64Strict(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : undefined;
}

function header(headers: AuthRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function fail(reply: SimReply): { ok: false; reply: SimReply } {
  return { ok: false, reply };
}
