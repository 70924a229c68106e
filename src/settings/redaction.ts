/**
 * What the logger hides. Paths are pino (fast-redact) paths; the same key is listed at the top level and
 * two levels down, which covers `log.info({ apiSecret })`, `{ venue: { apiSecret } }` and
 * `{ err: { options: { headers } } }` (got errors carry the request headers there).
 */
const SECRET_KEYS = ['apiSecret', 'secret', 'passphrase', 'password', 'payload', 'signature', 'authorization', 'code'] as const;
const SIGNED_HEADERS = ['x-txc-apikey', 'x-txc-payload', 'x-txc-signature', 'X-TXC-APIKEY', 'X-TXC-PAYLOAD', 'X-TXC-SIGNATURE'] as const;

export const REDACTED = '[redacted]';

export const redactPaths: readonly string[] = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
  ...SIGNED_HEADERS.flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`, `*.*.headers["${h}"]`]),
];

/**
 * `code` means two things: a created redeemable code (a bearer secret) and an error code (`ERR_CONFIG`,
 * `ECONNREFUSED`, the venue's numeric 30). Error codes are kept because they are what an operator
 * greps for; anything else under a `code` key is hidden.
 */
const ERROR_CODE = /^(ERR_[A-Z0-9_]+|E[A-Z]+)$/;

export function redactCensor(value: unknown, path: readonly string[]): unknown {
  if (path[path.length - 1] === 'code' && (typeof value === 'number' || (typeof value === 'string' && ERROR_CODE.test(value)))) return value;
  return REDACTED;
}

/**
 * Last line of defence for secrets that end up inside a free-text message (an error's text, a URL):
 * every occurrence of each known secret, raw or JSON-escaped, is replaced in the output bytes.
 * Secrets shorter than 4 characters are ignored (they would blank out ordinary words).
 */
export function createScrubber(secrets: readonly string[]): ((line: string) => string) | undefined {
  const needles = [...new Set(secrets.filter((s) => s.length >= 4).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
  if (needles.length === 0) return undefined;
  needles.sort((a, b) => b.length - a.length);
  return (line) => {
    let out = line;
    for (const n of needles) if (out.includes(n)) out = out.split(n).join(REDACTED);
    return out;
  };
}
