/**
 * One route of the daemon's operations HTTP surface (`http:` in the daemon config). The server
 * (`src/ops/http/`) owns listening, the token rules and errors; features (metrics, health, the
 * dashboard and its controls) each contribute routes of this shape, so none of them knows the others.
 */
export interface OpsRequest {
  readonly method: 'GET' | 'POST';
  /** The path without the query string, e.g. `/api/strategies/mm/pause`. */
  readonly path: string;
  /** Named segments of the route's pattern (`/api/strategies/:id/pause` gives `{ id }`). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body of a POST (`undefined` when there is none). */
  readonly body: unknown;
  /** The peer's address, for the journal of a control. */
  readonly from: string;
}

export interface OpsResponse {
  readonly status: number;
  /** Default `application/json; charset=utf-8` (the body is then JSON-encoded). */
  readonly contentType?: string;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface OpsRoute {
  readonly method: 'GET' | 'POST';
  /** A literal path or a pattern with `:name` segments. */
  readonly path: string;
  /**
   * A control changes the daemon (pause, resume, cancel, stop): it always needs the token, wherever the
   * server listens, and is journalled and logged by its handler.
   */
  readonly control: boolean;
  handle(request: OpsRequest): Promise<OpsResponse> | OpsResponse;
}
