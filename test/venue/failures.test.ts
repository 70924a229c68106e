import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import {
  MalformedResponseError,
  NetworkError,
  OutcomeUnknownError,
  RateLimitedError,
  TimeoutError,
  UnavailableError,
  VenueError,
} from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { orderRecordJson, startScriptedServer, type Script, type ScriptedServer } from './helpers/scripted-server.js';

const SECRET = 'TOP-SECRET-never-shown-0123456789';
const KEY = 'public-key-1';
const order = { market: 'BTC_USDT', side: 'buy' as const, amount: D('0.01'), price: D('30000'), clientOrderId: 'c-1' };
const FAST_RETRY = { limit: 3, rateLimitBaseMs: 5, networkBaseMs: 5, maxMs: 20, jitter: 0 };

const servers: ScriptedServer[] = [];
const clients: RestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(
  answer: (index: number) => Script,
  extra: Partial<ConstructorParameters<typeof RestClient>[0]> = {},
): Promise<{ server: ScriptedServer; client: RestClient }> {
  const server = await startScriptedServer((_req, i) => answer(i));
  servers.push(server);
  const client = new RestClient({ baseUrl: server.baseUrl, apiKey: KEY, apiSecret: SECRET, retry: FAST_RETRY, timeoutMs: 2000, ...extra });
  clients.push(client);
  return { server, client };
}

const html: Script = { status: 200, body: '<html><body>Hello</body></html>', contentType: 'text/html' };
const truncated: Script = { status: 200, body: orderRecordJson().slice(0, 40) };
const wrongTypes: Script = { status: 200, body: orderRecordJson().replace('"30000"', 'true') };

describe('malformed answers', () => {
  it.each([
    ['an HTML page', html],
    ['truncated JSON', truncated],
    ['JSON of the wrong types', wrongTypes],
  ])('%s on a read is a MalformedResponseError (not retried)', async (_name, script) => {
    const { client, server } = await setup(() => script);
    const err = await client.openOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toMatchObject({ endpoint: '/api/v4/orders', status: 200, code: 'ERR_VENUE_MALFORMED' });
    expect(server.seen).toHaveLength(1);
  });

  it.each([
    ['an HTML page', html],
    ['truncated JSON', truncated],
    ['JSON of the wrong types', wrongTypes],
  ])('%s on order creation is OutcomeUnknownError carrying the client id, the malformed error as cause', async (_n, script) => {
    const { client, server } = await setup(() => script);
    const err = await client.placeLimit(order).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).clientOrderId).toBe('c-1');
    expect((err as OutcomeUnknownError).cause).toBeInstanceOf(MalformedResponseError);
    expect((err as OutcomeUnknownError).rejected).toBe(false);
    expect(server.seen).toHaveLength(1); // never resubmitted
  });
});

describe('retries', () => {
  it('a read is retried on 5xx, a dropped connection and 429, then succeeds', async () => {
    const answers: Script[] = [
      { status: 503, body: 'maintenance', contentType: 'text/plain' },
      { hangUp: true },
      { status: 429, body: 'Too Many Requests', contentType: 'text/plain' },
      { status: 200, body: JSON.stringify({ BTC: { available: '1', freeze: '0' } }) },
    ];
    const { client, server } = await setup((i) => answers[i] ?? { status: 500, body: '' });
    const balance = await client.tradeBalance();
    expect(balance.BTC?.available.eq(1)).toBe(true);
    expect(server.seen).toHaveLength(4);
    const nonces = server.seen.map((r) => Number(JSON.parse(r.body).nonce as string));
    expect([...nonces].sort((a, b) => a - b)).toEqual(nonces);
    expect(new Set(nonces).size).toBe(4);
  });

  it('a read gives up after the retry limit with the typed error', async () => {
    const { client, server } = await setup(() => ({ status: 502, body: '<html>bad gateway</html>', contentType: 'text/html' }));
    await expect(client.markets()).rejects.toBeInstanceOf(UnavailableError);
    expect(server.seen).toHaveLength(4);
  });

  it('order creation: 429 is a certain non-execution and is retried; a 5xx is not, it is OutcomeUnknown', async () => {
    const a = await setup((i) => (i === 0 ? { status: 429, body: 'Too Many Requests' } : { status: 200, body: orderRecordJson() }));
    expect((await a.client.placeLimit(order)).orderId).toBe(1);
    expect(a.server.seen).toHaveLength(2);

    const b = await setup(() => ({ status: 500, body: '{"code":1,"message":"Internal error"}' }));
    const err = await b.client.placeLimit(order).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).cause).toBeInstanceOf(UnavailableError);
    expect(b.server.seen).toHaveLength(1);
  });

  it('order creation: a dropped connection or a timeout after sending is OutcomeUnknown, sent once', async () => {
    const a = await setup(() => ({ hangUp: true }));
    const dropped = await a.client.placeStopLimit({ ...order, activationPrice: D('29000'), clientOrderId: 's-9' }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(OutcomeUnknownError);
    expect((dropped as OutcomeUnknownError).clientOrderId).toBe('s-9');
    expect((dropped as OutcomeUnknownError).cause).toBeInstanceOf(NetworkError);
    expect(a.server.seen).toHaveLength(1);

    const b = await setup(() => ({ delayMs: 1000, then: { status: 200, body: orderRecordJson() } }), { timeoutMs: 100 });
    const late = await b.client.placeLimit(order).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(OutcomeUnknownError);
    expect((late as OutcomeUnknownError).cause).toBeInstanceOf(TimeoutError);
    expect(b.server.seen).toHaveLength(1);
  });

  it('order creation against a closed port is a certain non-execution: NetworkError, not OutcomeUnknown', async () => {
    const { server } = await setup(() => html);
    const url = server.baseUrl;
    await server.close();
    servers.length = 0;
    const client = new RestClient({ baseUrl: url, apiKey: KEY, apiSecret: SECRET, retry: { ...FAST_RETRY, limit: 1 } });
    clients.push(client);
    const err = await client.placeLimit(order).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
  });

  it('a 429 that lasts beyond the retries surfaces as RateLimitedError (rejected)', async () => {
    const { client } = await setup(() => ({ status: 429, body: 'Too Many Requests', contentType: 'text/plain' }));
    const err = await client.placeLimit(order).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).rejected).toBe(true);
  });

  it('transfer and code creation are not repeated on an uncertain outcome', async () => {
    const { client, server } = await setup(() => ({ status: 503, body: '' }));
    await expect(client.transfer({ ticker: 'USDT', amount: D('1'), from: 'main', to: 'spot' })).rejects.toBeInstanceOf(UnavailableError);
    await expect(client.createCode({ ticker: 'USDT', amount: D('1') })).rejects.toBeInstanceOf(UnavailableError);
    expect(server.seen).toHaveLength(2);
  });
});

describe('secrets', () => {
  it('no error message, cause chain or JSON of an error holds the secret, the payload, the signature or a code', async () => {
    const scripts: Script[] = [
      { status: 401, body: '{"code":10,"message":"Unauthorized request.","errors":{}}' },
      { hangUp: true },
      { status: 200, body: '{"code":"WB-CODE-SECRET-1","message":5}' },
      html,
      { delayMs: 500, then: html },
    ];
    const { client, server } = await setup((i) => scripts[i % scripts.length] as Script, { timeoutMs: 150, retry: { limit: 0 } });
    const errors: unknown[] = [];
    errors.push(await client.tradeBalance().catch((e: unknown) => e));
    errors.push(await client.placeLimit(order).catch((e: unknown) => e));
    errors.push(await client.createCode({ ticker: 'USDT', amount: D('1'), passphrase: 'pass-phrase-XYZ' }).catch((e: unknown) => e));
    errors.push(await client.placeLimit(order).catch((e: unknown) => e));
    errors.push(await client.placeLimit(order).catch((e: unknown) => e));
    const forbidden = [SECRET, 'WB-CODE-SECRET-1', 'pass-phrase-XYZ'];
    for (const r of server.seen) {
      forbidden.push(String(r.headers['x-txc-payload']), String(r.headers['x-txc-signature']));
    }
    expect(errors.every((e) => e instanceof VenueError)).toBe(true);
    for (const e of errors) {
      const texts: string[] = [];
      for (let x: unknown = e; x instanceof Error; x = x.cause) {
        texts.push(x.message, String(x.stack), JSON.stringify(x), JSON.stringify(Object.assign({}, x)));
      }
      const all = texts.join('\n');
      for (const f of forbidden) expect(all).not.toContain(f);
    }
  });

  it('the constructor rejects bad options with a precise ConfigError', () => {
    expect(() => new RestClient({ baseUrl: 'http://127.0.0.1:1', region: 'eu' })).toThrow(/exclude each other/);
    expect(() => new RestClient({ baseUrl: 'ftp://x' })).toThrow(/http or https/);
    expect(() => new RestClient({ baseUrl: 'not a url' })).toThrow(ConfigError);
    expect(() => new RestClient({ baseUrl: 'http://127.0.0.1:1', dialect: 'x' as never })).toThrow(/dialect/);
    expect(() => new RestClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => new RestClient({ baseUrl: 'http://127.0.0.1:1', retry: { limit: 1.5 } })).toThrow(/retry.limit/);
    expect(new RestClient({ region: 'eu', rateLimiter: false }).options.baseUrl).toBe('https://api.whitebit.eu');
  });

  it('a private call without credentials is a ConfigError and sends nothing', async () => {
    const { server } = await setup(() => html);
    const client = new RestClient({ baseUrl: server.baseUrl });
    clients.push(client);
    await expect(client.tradeBalance()).rejects.toBeInstanceOf(ConfigError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('the wire', () => {
  it('signs exactly the body sent, and sends the dialect asked for', async () => {
    const { client, server } = await setup(() => ({ status: 200, body: orderRecordJson() }), { dialect: 'exchange', nonceWindow: true });
    await client.placeLimit({ ...order, postOnly: true });
    const r = server.seen[0]!;
    expect(r.headers['x-txc-apikey']).toBe(KEY);
    expect(Buffer.from(String(r.headers['x-txc-payload']), 'base64').toString('utf8')).toBe(r.body);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      request: '/api/v4/order/new',
      nonceWindow: true,
      market: 'BTC_USDT',
      amount: '0.01',
      price: '30000',
      clientOrderId: 'c-1',
      postOnly: true,
    });
    expect(body).not.toHaveProperty('client_order_id');
    expect(body.nonce).toMatch(/^\d{13}$/);
    expect(r.headers['content-type']).toBe('application/json');
  });
});
