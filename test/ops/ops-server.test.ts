import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startOpsServer, type OpsServer } from '../../src/ops/http/ops-server.js';
import type { OpsRoute } from '../../src/ops/http/ops-route.js';
import { HttpConfigSchema } from '../../src/settings/ops-config.js';

const TOKEN = 'a-token-of-enough-length-42';
const silent = pino({ level: 'silent' });
let server: OpsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A read route and a control route that count their calls, so a refused request is seen to change nothing. */
function routes(calls: { read: number; control: number; bodies: unknown[] }): OpsRoute[] {
  return [
    { method: 'GET', path: '/thing', control: false, handle: () => (calls.read++, { status: 200, body: { ok: true } }) },
    {
      method: 'POST',
      path: '/api/strategies/:id/pause',
      control: true,
      handle: (req) => {
        calls.control++;
        calls.bodies.push({ id: req.params.id, body: req.body });
        return { status: 200, body: { ok: true } };
      },
    },
    {
      method: 'GET',
      path: '/boom',
      control: false,
      handle: () => {
        throw new Error(`failed with ${TOKEN}`);
      },
    },
  ];
}

const post = (url: string, headers: Record<string, string> = {}, body = '{"cancelOrders":true}') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('the ops HTTP server: routes and the token rules', () => {
  it('on loopback: reads need no token; a control without the token (or with a wrong one) is 401 and never reaches its handler', async () => {
    const calls = { read: 0, control: 0, bodies: [] as unknown[] };
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, token: TOKEN, routes: routes(calls), logger: silent });
    expect((await fetch(`${server.url}/thing`)).status).toBe(200);
    const none = await post(`${server.url}/api/strategies/mm/pause`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(`${server.url}/api/strategies/mm/pause`, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await post(`${server.url}/api/strategies/mm/pause`, { authorization: TOKEN })).status).toBe(401);
    expect(calls.control).toBe(0);
    const ok = await post(`${server.url}/api/strategies/mm/pause`, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(calls.bodies).toEqual([{ id: 'mm', body: { cancelOrders: true } }]);
  });

  it('with no token configured, controls are refused (403) and change nothing', async () => {
    const calls = { read: 0, control: 0, bodies: [] as unknown[] };
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, routes: routes(calls), logger: silent });
    const res = await post(`${server.url}/api/strategies/mm/pause`, { authorization: 'Bearer anything-at-all-here' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/no http.token/);
    expect(calls.control).toBe(0);
  });

  it('off loopback every route needs the token', async () => {
    const calls = { read: 0, control: 0, bodies: [] as unknown[] };
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, token: TOKEN, routes: routes(calls), logger: silent, tokenForAll: true });
    expect((await fetch(`${server.url}/thing`)).status).toBe(401);
    expect(calls.read).toBe(0);
    expect((await fetch(`${server.url}/thing`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  it('404, 405, 400 on a body that is not JSON, 413 on a huge one, and a 500 that names no secret', async () => {
    const calls = { read: 0, control: 0, bodies: [] as unknown[] };
    server = await startOpsServer({ listen: { host: '127.0.0.1', port: 0 }, token: TOKEN, routes: routes(calls), logger: silent });
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
    expect((await fetch(`${server.url}/thing`, { method: 'POST' })).status).toBe(405);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(`${server.url}/api/strategies/mm/pause`, auth, '{nope')).status).toBe(400);
    expect((await post(`${server.url}/api/strategies/mm/pause`, auth, `"${'x'.repeat(70_000)}"`)).status).toBe(413);
    expect(calls.control).toBe(0);
    const boom = await fetch(`${server.url}/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toContain(TOKEN);
  });

  it('the config refuses a non-loopback listen without a token, and a short token', () => {
    const open = HttpConfigSchema.safeParse({ listen: '0.0.0.0:9464' });
    expect(open.success).toBe(false);
    expect(JSON.stringify(open.error?.issues)).toMatch(/not loopback\) needs a token/);
    expect(HttpConfigSchema.safeParse({ listen: '0.0.0.0:9464', token: TOKEN }).success).toBe(true);
    expect(HttpConfigSchema.safeParse({ listen: '127.0.0.1:9464', token: 'short' }).success).toBe(false);
    expect(HttpConfigSchema.safeParse({ listen: '127.0.0.1:9464', token: '' }).data?.token).toBeUndefined();
    expect(HttpConfigSchema.safeParse({ listen: 'nonsense' }).success).toBe(false);
    expect(HttpConfigSchema.safeParse({ listen: '[::1]:9464' }).success).toBe(true);
  });
});
