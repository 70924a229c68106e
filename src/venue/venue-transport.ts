import type { RawResponse } from './http-transport.js';

/**
 * How the client's requests reach the venue: HTTP (HttpTransport, the default) or, for tests on virtual time, a
 * simulated exchange in the same process fed the very bytes the client signed. Everything above it (signing, nonces,
 * rate limits, retries, parsing, error mapping) is the same either way.
 */
export interface VenueTransport {
  /** A public GET of `path` (with its query); `endpoint` names it in errors. */
  get(path: string, endpoint: string): Promise<RawResponse>;
  /** A signed POST: `body` is the exact JSON that was signed. */
  post(path: string, body: string, headers: Readonly<Record<string, string>>, endpoint: string): Promise<RawResponse>;
  close(): void;
}
