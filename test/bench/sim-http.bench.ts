import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSim } from '../../src/sim/start-sim.js';

/**
 * The simulated exchange's HTTP overhead: sequential keep-alive round trips per second to
 * (a) a bare node:http server answering `["pong"]` (the baseline), (b) the sim's ping (routing, rate
 * window, stats), (c) the sim's signed order/new (auth with HMAC-SHA512, rules validation, matching,
 * serialisation). Rounds alternate so machine noise hits all three alike; figures are ratios.
 */
const ROUND_MS = 500;
const ROUNDS = 3;

export default async function bench(): Promise<void> {
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('["pong"]');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const sim = await startSim({ flow: false, rateLimits: { public: { limit: 1e9 }, ping: { limit: 1e9 }, orderNew: { limit: 1e9 } } });
  const account = sim.accounts[0]!;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let nonce = Date.now();
  let n = 0;

  const request = (url: string, method: 'GET' | 'POST', body?: string, headers: Record<string, string> = {}): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  const order = (): Promise<void> => {
    n++;
    const path = '/api/v4/order/new';
    // Alternate non-crossing buys and sells so the book stays small and nothing trades.
    const body = JSON.stringify({
      request: path,
      nonce: String(++nonce),
      market: 'BTC_USDT',
      side: n % 2 ? 'buy' : 'sell',
      amount: '0.001',
      price: n % 2 ? '10000' : '50000',
    });
    const payload = Buffer.from(body).toString('base64');
    const signature = createHmac('sha512', account.apiSecret).update(payload).digest('hex');
    return request(`${sim.baseUrl}${path}`, 'POST', body, {
      'content-type': 'application/json',
      'x-txc-apikey': account.apiKey,
      'x-txc-payload': payload,
      'x-txc-signature': signature,
    });
  };
  const cases: Record<string, () => Promise<void>> = {
    bare: () => request(`${bareUrl}/`, 'GET'),
    simPing: () => request(`${sim.baseUrl}/api/v4/public/ping`, 'GET'),
    simOrderNew: order,
  };
  const totals: Record<string, { count: number; ms: number }> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of Object.entries(cases)) {
      const t0 = performance.now();
      let count = 0;
      while (performance.now() - t0 < ROUND_MS) {
        await fn();
        count++;
      }
      const total = (totals[name] ??= { count: 0, ms: 0 });
      total.count += count;
      total.ms += performance.now() - t0;
    }
  }
  const rate = (name: string): number => (totals[name]!.count / totals[name]!.ms) * 1000;
  const base = rate('bare');
  process.stdout.write(`bare node:http   ${base.toFixed(0)} req/s (baseline)\n`);
  process.stdout.write(`sim ping         ${rate('simPing').toFixed(0)} req/s  ratio ${(rate('simPing') / base).toFixed(2)}\n`);
  process.stdout.write(
    `sim order/new    ${rate('simOrderNew').toFixed(0)} req/s  ratio ${(rate('simOrderNew') / base).toFixed(2)} (signed, validated, placed)\n`,
  );
  agent.destroy();
  bare.close();
  bare.closeAllConnections();
  await sim.close();
}
