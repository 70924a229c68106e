import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { BotError } from '../../model/errors.js';
import { isLoopback, type ListenAddress } from '../../settings/ops-config.js';
import type { OpsRequest, OpsResponse, OpsRoute } from './ops-route.js';

const MAX_BODY_BYTES = 64 * 1024;

export interface OpsServerOptions {
  readonly listen: ListenAddress;
  /** Bearer token; controls need it always, every route needs it when not on loopback. */
  readonly token?: string;
  /** Until given (here or by `setRoutes`), every request is answered 503 "starting". */
  readonly routes?: readonly OpsRoute[];
  readonly logger: Logger;
  /** Every route needs the token, not only controls. Default: when `listen` is not a loopback address. */
  readonly tokenForAll?: boolean;
}

export interface OpsServer {
  /** `http://host:port` as bound (port 0 resolved). */
  readonly url: string;
  /** The daemon binds first (a taken port fails before anything else starts) and routes once its runtime exists. */
  setRoutes(routes: readonly OpsRoute[]): void;
  close(): Promise<void>;
}

export class OpsServerError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_OPS_HTTP', cause });
  }
}

interface CompiledRoute {
  readonly route: OpsRoute;
  readonly parts: readonly string[];
}

/**
 * The daemon's operations HTTP server (node:http, no framework): matches routes, applies the token rules, parses
 * JSON bodies, turns a handler's throw into a 500 that names no secret. Routes know nothing of each other.
 */
export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  let compiled: CompiledRoute[] | undefined;
  const setRoutes = (routes: readonly OpsRoute[]): void => {
    compiled = routes.map((route) => ({ route, parts: route.path.split('/') }));
  };
  if (o.routes !== undefined) setRoutes(o.routes);
  const tokenForAll = o.tokenForAll ?? !isLoopback(o.listen.host);
  const expected = o.token === undefined ? undefined : Buffer.from(o.token, 'utf8');
  const log = o.logger.child({ component: 'ops-http' });

  const authorised = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization;
    if (expected === undefined || typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
    const given = Buffer.from(header.slice(7).trim(), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://ops.invalid');
    if (compiled === undefined) return send(res, { status: 503, body: { status: 'starting', error: 'the daemon is starting' } }, { 'Retry-After': '1' });
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const sameMethod = compiled.filter((c) => c.route.method === method);
    const found = matchRoute(sameMethod, url.pathname);
    if (!found) {
      const other = matchRoute(compiled, url.pathname);
      return send(
        res,
        other
          ? { status: 405, body: { error: `method ${req.method} not allowed on ${url.pathname}` } }
          : { status: 404, body: { error: `no route ${url.pathname}` } },
      );
    }
    if (found.route.control || tokenForAll) {
      if (expected === undefined) {
        return send(res, {
          status: 403,
          body: {
            error: 'controls are off: this daemon has no http.token configured',
            message: 'controls are off: start the daemon with http.token set (e.g. BOT_HTTP_TOKEN)',
          },
        });
      }
      if (!authorised(req)) {
        log.warn({ path: url.pathname, from: req.socket.remoteAddress }, 'ops request refused: missing or wrong token');
        return send(
          res,
          { status: 401, body: { error: 'a valid "Authorization: Bearer <token>" header is required', message: 'refused: the token is missing or wrong' } },
          { 'WWW-Authenticate': 'Bearer' },
        );
      }
    }
    let body: unknown;
    if (method === 'POST') {
      const text = await readBody(req);
      if (text === undefined) return send(res, { status: 413, body: { error: `request body over ${MAX_BODY_BYTES} bytes` } });
      try {
        body = text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        return send(res, { status: 400, body: { error: 'the request body is not JSON' } });
      }
    }
    const request: OpsRequest = {
      method: method as 'GET' | 'POST',
      path: url.pathname,
      params: found.params,
      query: url.searchParams,
      body,
      from: req.socket.remoteAddress ?? 'unknown',
    };
    const response = await found.route.handle(request);
    send(res, response, undefined, req.method === 'HEAD');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error({ path: req.url?.split('?')[0], code: (error as { code?: string }).code }, `ops route failed: ${(error as Error).message}`);
      if (!res.headersSent) send(res, { status: 500, body: { error: 'internal error; see the daemon log' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new OpsServerError(`http.listen: cannot listen on ${o.listen.host}:${o.listen.port}: ${error.message}`, error)));
    server.listen(o.listen.port, o.listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    setRoutes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function matchRoute(routes: readonly CompiledRoute[], path: string): { route: OpsRoute; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  outer: for (const c of routes) {
    if (c.parts.length !== parts.length) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const want = c.parts[i]!;
      const got = parts[i]!;
      if (want.startsWith(':')) {
        if (got === '') continue outer;
        params[want.slice(1)] = decodeURIComponent(got);
      } else if (want !== got) continue outer;
    }
    return { route: c.route, params };
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, r: OpsResponse, extra?: Record<string, string>, headOnly = false): void {
  const contentType = r.contentType ?? 'application/json; charset=utf-8';
  const payload = typeof r.body === 'string' || Buffer.isBuffer(r.body) ? r.body : JSON.stringify(r.body);
  res.writeHead(r.status, {
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...(r.headers ?? {}),
    ...(extra ?? {}),
  });
  res.end(headOnly ? undefined : payload);
}
