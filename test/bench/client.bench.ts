/**
 * `npm run bench -- client`: signed order/new round trips per second through RestClient (nonce,
 * signing, rate limiter, got, status mapping, zod parse into Decimals) next to a bare got POST of the
 * same body with fixed headers to the same server, and the ratio (target >= 0.9). The server runs in
 * a child process and answers a fixed order record to both, so the ratio isolates the client's own
 * overhead. Rounds alternate to spread machine noise; bounded to a few seconds. Besides wall-clock
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

const ORDER = JSON.stringify({
  order_id: 1, client_order_id: 'b-1', market: 'BTC_USDT', side: 'buy', type: 'limit', timestamp: 1700000000.123456,
  deal_money: '0', deal_stock: '0', amount: '0.01', left: '0.01', deal_fee: '0', price: '30000',
  postOnly: false, ioc: false, status: 'NEW', stp: 'no', rpi: false,
});

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
const PAIRS = 15;

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

  const body = JSON.stringify({ request: '/api/v4/order/new', nonce: '1700000000000', market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '30000', client_order_id: 'b-1' });
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

  // warm-up: sockets, JIT
  await measure(() => client.placeLimit(request));
  await measure(() => bare.post(url, { body }));

  // short rounds in pairs, which side goes first alternating, each ratio taken within its pair and the
  // median of those reported: a shared, noisy machine shifts both sides of a pair alike
  const clientRounds: Round[] = [];
  const bareRounds: Round[] = [];
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2 === 0) bareRounds.push(await measure(() => bare.post(url, { body })));
    clientRounds.push(await measure(() => client.placeLimit(request)));
    if (i % 2 === 1) bareRounds.push(await measure(() => bare.post(url, { body })));
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const pairs = clientRounds.map((c, i) => ({ c, b: bareRounds[i] as Round }));
  const rateRatio = median(pairs.map(({ c, b }) => c.rate / b.rate));
  const cpuRatio = median(pairs.map(({ c, b }) => b.cpuUs / c.cpuUs));
  const w = (label: string, r: Round[]): string =>
    `${label}${median(r.map((x) => x.rate)).toFixed(0)} req/s, ${median(r.map((x) => x.cpuUs)).toFixed(0)} us CPU per round trip\n`;
  process.stdout.write(`(medians of ${PAIRS} pairs of alternating ${ROUND_MS} ms rounds, ${CONCURRENCY} in flight; server in a child process)\n`);
  process.stdout.write(w('signed order/new via RestClient: ', clientRounds));
  process.stdout.write(w('bare got POST, same body:        ', bareRounds));
  process.stdout.write(`ratio client / bare, round trips per second: ${rateRatio.toFixed(3)}  (target >= 0.9)\n`);
  process.stdout.write(`ratio client / bare, by client CPU per trip: ${cpuRatio.toFixed(3)}  (robust when the machine is loaded)\n`);
  client.close();
  server.kill();
}
