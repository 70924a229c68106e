import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SimReply } from './error-bodies.js';
import type { FaultInjector, FaultPlan } from './faults.js';
import { garbageAnswer } from './garbage-answers.js';
import type { VenueLies } from './venue-lies.js';
import { createSimHandler, type SimHandlerOptions, type SimResponder } from './sim-handler.js';
import type { SimStats } from './sim-stats.js';

export type { AccessEntry } from './sim-handler.js';

/**
 * The simulated exchange's HTTP front (node:http, no framework): reads each request off the socket and hands it to
 * the request handling (sim-handler.ts: route → rate window → fault plan → auth → handler), then writes the answer,
 * or drops the socket when a fault says so. Everything the server saw is in `stats`.
 */
export type SimServerOptions = SimHandlerOptions;

export interface SimServer {
  readonly server: Server;
  readonly stats: SimStats;
  /** The fault injector (e.g. to turn faults off before a final reconciliation). */
  readonly faults: FaultInjector;
  /** The lying venue's controls (episodes, hidden orders, `setEnabled`); inert unless configured or driven. */
  readonly lies: VenueLies;
}

/** Largest private body accepted; the venue's bodies are a few hundred bytes. */
const MAX_BODY_BYTES = 1 << 20;

export function createSimServer(options: SimServerOptions): SimServer {
  const handler = createSimHandler(options);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawBody = await readBody(req);
    if (rawBody === undefined) {
      res.destroy();
      return;
    }
    const responder: SimResponder = {
      reply: (reply) => write(res, reply),
      drop: () => res.socket?.destroy(),
      garbage: (plan, reply, random) => writeGarbage(res, plan, reply, random),
    };
    await handler.handle(
      { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, rawBody, remoteAddress: req.socket.remoteAddress ?? 'unknown' },
      responder,
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in a handler must not take the sim down; answer like an unavailable venue.
      process.stderr.write(`sim: internal error on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}\n`);
      if (!res.headersSent) write(res, { status: 500, text: 'Internal Server Error' });
      else res.destroy();
    });
  });
  server.once('close', () => handler.close());
  return { server, stats: handler.stats, faults: handler.faults, lies: handler.lies };
}

/** The venue acted (or refused); the client gets garbage instead of the answer (malformed-venue mode). */
async function writeGarbage(res: ServerResponse, plan: FaultPlan, reply: SimReply, random: () => number): Promise<void> {
  const answer = garbageAnswer(plan.garbage!, reply.text ?? reply.body, random);
  res.on('error', () => {}); // a client that gave up on a drip closes the socket under us
  res.writeHead(answer.status, answer.contentType !== undefined ? { 'content-type': answer.contentType } : {});
  if (plan.garbage !== 'drip' || answer.text.length === 0) {
    res.end(answer.text);
    return;
  }
  // a slow drip: the body a few bytes at a time, spread over dripMs
  const bytes = Buffer.from(answer.text);
  const pieces = Math.min(bytes.length, 40);
  const step = Math.ceil(bytes.length / pieces);
  const pause = Math.max(1, Math.round((plan.dripMs ?? 0) / pieces));
  for (let at = 0; at < bytes.length && !res.destroyed; at += step) {
    res.write(bytes.subarray(at, at + step));
    await sleep(pause);
  }
  res.end();
}

function write(res: ServerResponse, reply: SimReply): void {
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(reply.text);
  } else if (reply.body === undefined) {
    res.writeHead(reply.status, { 'content-length': '0' });
    res.end();
  } else {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
