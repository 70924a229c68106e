/**
 * `npm run bench -- client`: signed order/new round trips per second through RestClient (nonce,
 * signing, rate limiter, got, status mapping, zod parse into Decimals) next to a bare got POST of the
 * same body with fixed headers to the same server, and the ratio (target >= 0.9). The server runs in
 * a worker thread and answers a fixed order record to both, so the ratio isolates the client's own
 * overhead. Rounds alternate to spread machine noise; bounded to a few seconds.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import got from 'got';
import { D } from '../../src/model/decimal.js';
import { RateLimiter } from '../../src/venue/rate-limiter.js';
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
const { parentPort, workerData } = require('node:worker_threads');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(workerData); });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

const CONCURRENCY = 8;
const ROUND_MS = 300;
const ROUNDS = 9;

async function measure(send: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const end = performance.now() + ROUND_MS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await send();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

export default async function bench(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true, workerData: ORDER });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;

  // the real limiter, with allowances too large to throttle: its bookkeeping is part of the measured cost
  const roomy = Object.fromEntries(Object.entries(RATE_LIMITS).map(([k, v]) => [k, { ...v, limit: 1e9 }])) as Record<RateBucket, RateLimit>;
  const client = new RestClient({ baseUrl, apiKey: 'bench-key', apiSecret: 'bench-secret', rateLimiter: new RateLimiter({ limits: roomy }) });
  const request = { market: 'BTC_USDT', side: 'buy' as const, amount: D('0.01'), price: D('30000'), clientOrderId: 'b-1' };

  const body = JSON.stringify({ request: '/api/v4/order/new', nonce: '1700000000000', market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '30000', client_order_id: 'b-1' });
  const { payload, signature } = signPayload(body, 'bench-secret');
  const bare = got.extend({
    agent: { http: new http.Agent({ keepAlive: true }) },
    retry: { limit: 0 },
    throwHttpErrors: false,
    responseType: 'text',
    headers: { 'content-type': 'application/json', 'x-txc-apikey': 'bench-key', 'x-txc-payload': payload, 'x-txc-signature': signature },
  });
  const url = `${baseUrl}/api/v4/order/new`;

  // warm-up: sockets, JIT
  await measure(() => client.placeLimit(request));
  await measure(() => bare.post(url, { body }));

  // short alternating rounds, the ratio taken per pair: a shared, noisy machine shifts both sides of a pair alike
  const clientRates: number[] = [];
  const bareRates: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const first = i % 2 === 0;
    const b1 = first ? await measure(() => bare.post(url, { body })) : 0;
    const c = await measure(() => client.placeLimit(request));
    const b = first ? b1 : await measure(() => bare.post(url, { body }));
    clientRates.push(c);
    bareRates.push(b);
    ratios.push(c / b);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  process.stdout.write(`signed order/new via RestClient: ${median(clientRates).toFixed(0)} req/s (median of ${ROUNDS} rounds of ${ROUND_MS} ms, ${CONCURRENCY} in flight)\n`);
  process.stdout.write(`bare got POST, same body:        ${median(bareRates).toFixed(0)} req/s\n`);
  process.stdout.write(`ratio client / bare:             ${median(ratios).toFixed(3)}  (median of per-round ratios; target >= 0.9)\n`);
  client.close();
  await worker.terminate();
}
