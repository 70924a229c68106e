/**
 * `npm run bench -- client`: signed order/new round trips per second through RestClient (nonce,
 * signing, rate limiter, got, status mapping, parse into Decimals) next to a bare got POST of the
 * same body with fixed headers to the same server, and the ratio (target >= 0.9). The server runs in
 * a child process and answers a fixed order record to both, so the ratio isolates the client's own
 * overhead. A third side is a bare got *stream* POST: RestClient sends through got's stream interface, which skips
 * the promise interface's own per-request layers, so that ratio shows the client's own work (nonce, signing, JSON,
 * limiter, parse) against the cheapest path through got. Rounds rotate to spread machine noise; about fifteen seconds
 * in all. Besides wall-clock
 * throughput it prints this process's CPU time per round trip (the server's is not in it), which a
 * shared, loaded machine disturbs far less.
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import got from 'got';
import { D } from '../../src/model/decimal.js';
import { RateLimiter } from '../../src/venue/rate-limiter.js';
import { KEEP_ALIVE_AGENT_OPTIONS } from '../../src/venue/http-transport.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { signPayload } from '../../src/venue/signing.js';
import { RATE_LIMITS, type RateBucket, type RateLimit } from '../../src/venue/wire.js';
import { orderRecordJson } from '../venue/helpers/scripted-server.js';

const ORDER = orderRecordJson('b-1');

const SERVER = `
const http = require('node:http');
const answer = ${JSON.stringify(ORDER)};
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(answer); });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

const CONCURRENCY = 8;
const ROUND_MS = 150;
const PAIRS = 21;
/**
 * Pairs run first and not counted. A fresh process spends its first seconds growing the young
 * generation and optimising code, and rounds cost two to four times the settled figure then, at
 * random for either side (pair ratios from 0.3 to 2.2 in the first ten pairs): the measured pairs
 * start once that is over, for both sides alike.
 */
const WARM_UP_PAIRS = 8;

interface Round {
  /** Round trips per second, wall clock. */
  readonly rate: number;
  /** This process's CPU microseconds per round trip. */
  readonly cpuUs: number;
}

async function measure(send: () => Promise<unknown>): Promise<Round> {
  let done = 0;
  const end = performance.now() + ROUND_MS;
  const start = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await send();
        done += 1;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rate: done / ((performance.now() - start) / 1000), cpuUs: (used.user + used.system) / done };
}

export default async function bench(): Promise<void> {
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  const baseUrl = `http://127.0.0.1:${port}`;

  // the real limiter, with allowances too large to throttle: its bookkeeping is part of the measured cost
  const roomy = Object.fromEntries(Object.entries(RATE_LIMITS).map(([k, v]) => [k, { ...v, limit: 1e9 }])) as Record<RateBucket, RateLimit>;
  const client = new RestClient({ baseUrl, apiKey: 'bench-key', apiSecret: 'bench-secret', rateLimiter: new RateLimiter({ limits: roomy }) });
  const request = { market: 'BTC_USDT', side: 'buy' as const, amount: D('0.01'), price: D('30000'), clientOrderId: 'b-1' };

  const body = JSON.stringify({
    request: '/api/v4/order/new',
    nonce: '1700000000000',
    market: 'BTC_USDT',
    side: 'buy',
    amount: '0.01',
    price: '30000',
    client_order_id: 'b-1',
  });
  const { payload, signature } = signPayload(body, 'bench-secret');
  const bare = got.extend({
    // the client's own keep-alive settings: a socket timeout re-armed per request is part of both sides
    agent: { http: new http.Agent(KEEP_ALIVE_AGENT_OPTIONS) },
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'text',
    headers: { 'content-type': 'application/json', 'x-txc-apikey': 'bench-key', 'x-txc-payload': payload, 'x-txc-signature': signature },
  });
  const url = `${baseUrl}/api/v4/order/new`;

  // got's stream interface, the one RestClient sends through (src/venue/http-transport.ts): the cheapest way through
  // got, printed next to the promise POST so the client's own work (nonce, signing, JSON, parse) shows undiluted
  const bareStream = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const r = bare.stream.post(url, { body });
      r.on('data', (c: Buffer) => chunks.push(c));
      r.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      r.on('error', reject);
    });
  const sides = [() => client.placeLimit(request), () => bare.post(url, { body }), bareStream];

  // warm-up: sockets, JIT, heap sizing
  for (let i = 0; i < WARM_UP_PAIRS; i++) for (const send of sides) await measure(send);

  // short rounds in groups of the three sides, the order rotating from group to group, each ratio taken within its
  // group and the median of those reported: a shared, noisy machine shifts the sides of a group alike
  const rounds: Round[][] = [[], [], []];
  for (let i = 0; i < PAIRS; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      rounds[side]!.push(await measure(sides[side]!));
    }
  }
  const [clientRounds, bareRounds, streamRounds] = rounds as [Round[], Round[], Round[]];
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const ratios = (base: Round[]) => ({
    rate: median(clientRounds.map((c, i) => c.rate / base[i]!.rate)),
    cpu: median(clientRounds.map((c, i) => base[i]!.cpuUs / c.cpuUs)),
  });
  const vsPromise = ratios(bareRounds);
  const vsStream = ratios(streamRounds);
  const w = (label: string, r: Round[]): string =>
    `${label}${median(r.map((x) => x.rate)).toFixed(0)} req/s, ${median(r.map((x) => x.cpuUs)).toFixed(0)} us CPU per round trip\n`;
  process.stdout.write(
    `(medians of ${PAIRS} groups of rotating ${ROUND_MS} ms rounds after ${WARM_UP_PAIRS} warm-up groups, ${CONCURRENCY} in flight; server in a child process)\n`,
  );
  process.stdout.write(w('signed order/new via RestClient:   ', clientRounds));
  process.stdout.write(w('bare got POST, same body:          ', bareRounds));
  process.stdout.write(w('bare got stream POST, same body:   ', streamRounds));
  process.stdout.write(`ratio client / bare got POST, round trips per second: ${vsPromise.rate.toFixed(3)}  (target >= 0.9)\n`);
  process.stdout.write(`ratio client / bare got POST, by client CPU per trip: ${vsPromise.cpu.toFixed(3)}  (robust when the machine is loaded)\n`);
  process.stdout.write(
    `ratio client / bare got stream POST (the interface the client uses): ${vsStream.rate.toFixed(3)} per second, ${vsStream.cpu.toFixed(3)} by CPU  (the client's own work, undiluted)\n`,
  );
  client.close();
  server.kill();
}
