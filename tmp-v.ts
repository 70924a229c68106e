import { spawn } from 'node:child_process';
import http from 'node:http';
import got from 'got';
import { D } from './src/model/decimal.js';
import { RestClient } from './src/venue/rest-client.js';
import { HttpTransport } from './src/venue/http-transport.js';
const ORDER = JSON.stringify({ order_id: 1, client_order_id: 'b-1', market: 'BTC_USDT', side: 'buy', type: 'limit', timestamp: 1700000000.123456, deal_money: '0', deal_stock: '0', amount: '0.01', left: '0.01', deal_fee: '0', price: '30000', postOnly: false, ioc: false, status: 'NEW', stp: 'no', rpi: false });
const SERVER = `const http = require('node:http'); const answer = ${JSON.stringify(ORDER)};
const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(answer); }); });
server.keepAliveTimeout = 30000; server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));`;
const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise<number>((resolve) => server.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
const H = { 'content-type': 'application/json', 'x-txc-apikey': 'k', 'x-txc-payload': 'a'.repeat(120), 'x-txc-signature': 'b'.repeat(128) };
const mk = (agentOpts: http.AgentOptions, extra: object) => got.extend({ agent: { http: new http.Agent({ keepAlive: true, ...agentOpts }) }, retry: { limit: 0 }, throwHttpErrors: false, responseType: 'text', headers: H, ...extra });
const url = `http://127.0.0.1:${port}/api/v4/order/new`;
const body = '{"request":"/api/v4/order/new","nonce":"1700000000000","market":"BTC_USDT","side":"buy","amount":"0.01","price":"30000","client_order_id":"b-1"}';
const a = mk({}, {}), b = mk({ timeout: 4000 }, {}), c = mk({}, { timeout: { request: 10000 } }), d = mk({}, { followRedirect: false });
const t = new HttpTransport({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 10000 });
const cl = new RestClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', apiSecret: 's', rateLimiter: false });
const req = { market: 'BTC_USDT', side: 'buy' as const, amount: D('0.01'), price: D('30000'), clientOrderId: 'b-1' };
async function m(f: () => Promise<unknown>) { let n = 0; const end = performance.now() + 500; await Promise.all(Array.from({ length: 8 }, async () => { while (performance.now() < end) { await f(); n++; } })); return n * 2; }
const V: [string, () => Promise<unknown>][] = [['bare', () => a.post(url, { body })], ['agentTimeout', () => b.post(url, { body })], ['reqTimeout', () => c.post(url, { body })], ['noRedirect', () => d.post(url, { body })], ['transport', () => t.post('/api/v4/order/new', body, {}, 'x')], ['client', () => cl.placeLimit(req)]];
for (const [, f] of V) await m(f);
for (let r = 0; r < 3; r++) { const out = []; for (const [n, f] of V) out.push(n + ' ' + (await m(f))); console.log(out.join(' | ')); }
server.kill(); t.close(); cl.close();
