import { createHmac } from 'node:crypto';

/**
 * Raw HTTP requests to the simulated exchange for tests that check the wire itself (status, code,
 * errors). Signs with node:crypto exactly as exchange-facts §1 says, independently of the project's
 * client, so a signing bug in either shows up as a disagreement. Every part can be overridden to
 * build the offending requests.
 */
export interface Credentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export interface RawAnswer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string | null;
  /** Parsed JSON, or undefined when the body is not JSON. */
  readonly json: unknown;
}

let lastNonce = 0;
/** Millisecond time, strictly increasing within the process. */
export function nextNonce(): string {
  lastNonce = Math.max(Date.now(), lastNonce + 1);
  return String(lastNonce);
}

export function sign(payload: string, secret: string): string {
  return createHmac('sha512', secret).update(payload).digest('hex');
}

export interface SignedPostOptions {
  /** Replaces the body string (default: JSON of `{request: path, nonce, ...fields}`). */
  readonly bodyText?: string;
  /** Sent as HTTP body instead of the signed body string (payload/body mismatch tests). */
  readonly sentBody?: string;
  /** Replaces the X-TXC-PAYLOAD header ('' sends it empty, null leaves it out). */
  readonly payload?: string | null;
  readonly signature?: string | null;
  readonly apiKey?: string | null;
  /** Omit the automatic `request` / `nonce` fields. */
  readonly noRequest?: boolean;
  readonly noNonce?: boolean;
}

/** POST a signed private request: `fields` are the endpoint's own; `request` and `nonce` are added. */
export async function signedPost(
  baseUrl: string,
  path: string,
  creds: Credentials,
  fields: Record<string, unknown> = {},
  o: SignedPostOptions = {},
): Promise<RawAnswer> {
  const body: Record<string, unknown> = {};
  if (!o.noRequest) body['request'] = path;
  if (!o.noNonce) body['nonce'] = nextNonce();
  Object.assign(body, fields);
  const bodyText = o.bodyText ?? JSON.stringify(body);
  const payload = o.payload === undefined ? Buffer.from(bodyText, 'utf8').toString('base64') : o.payload;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const apiKey = o.apiKey === undefined ? creds.apiKey : o.apiKey;
  if (apiKey !== null) headers['x-txc-apikey'] = apiKey;
  if (payload !== null) headers['x-txc-payload'] = payload;
  const signature = o.signature === undefined ? sign(payload ?? '', creds.apiSecret) : o.signature;
  if (signature !== null) headers['x-txc-signature'] = signature;
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: o.sentBody ?? bodyText });
  return answer(res);
}

export async function publicGet(baseUrl: string, pathAndQuery: string): Promise<RawAnswer> {
  return answer(await fetch(`${baseUrl}${pathAndQuery}`));
}

async function answer(res: Response): Promise<RawAnswer> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, contentType: res.headers.get('content-type'), json };
}
