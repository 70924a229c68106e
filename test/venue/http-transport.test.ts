import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError } from '../../src/venue/errors.js';
import { HttpTransport, wasCertainlyNotSent } from '../../src/venue/http-transport.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function transport(baseUrl: string, timeoutMs = 2000): HttpTransport {
  const t = new HttpTransport({ baseUrl, timeoutMs });
  closers.push(() => t.close());
  return t;
}

describe('HttpTransport (got stream interface)', () => {
  it('gives any status with the whole body, multi-byte characters split across many chunks intact', async () => {
    const text = 'ünïcødé €uro 😀 '.repeat(20_000); // ~400 kB: many chunks, characters cut between them
    const bytes = Buffer.from(text, 'utf8');
    const baseUrl = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(418, { 'content-type': 'text/plain; charset=utf-8' });
        // written in odd-sized slices so that chunk borders fall inside characters
        for (let i = 0; i < bytes.length; i += 7777) res.write(bytes.subarray(i, i + 7777));
        res.end();
      });
    });
    const res = await transport(baseUrl).post('/x', '{"a":1}', { 'x-h': 'v' }, '/x');
    expect(res.status).toBe(418);
    expect(res.text).toBe(text);
  });

  it('sends the body and headers, and decompresses a gzip answer as got does', async () => {
    let seen: { method?: string | undefined; type?: string | undefined; h?: string; body: string } = { body: '' };
    const baseUrl = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { method: req.method, type: req.headers['content-type'], h: String(req.headers['x-h']), body: Buffer.concat(chunks).toString('utf8') };
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync('{"ok":true}'));
      });
    });
    const t = transport(baseUrl);
    const res = await t.post('/p', '{"n":"1"}', { 'x-h': 'v' }, '/p');
    expect(res).toEqual({ status: 200, text: '{"ok":true}' });
    expect(seen).toEqual({ method: 'POST', type: 'application/json', h: 'v', body: '{"n":"1"}' });
    const got = await t.get('/g?q=1', '/g');
    expect(got).toEqual({ status: 200, text: '{"ok":true}' });
    expect(seen.method).toBe('GET');
  });

  it('an empty answer is an empty text', async () => {
    const baseUrl = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(204);
        res.end();
      });
    });
    expect(await transport(baseUrl).get('/e', '/e')).toEqual({ status: 204, text: '' });
  });

  it('a request past its deadline rejects with TimeoutError (maybe sent); a refused connection with a certain non-sending', async () => {
    const baseUrl = await serve(() => {
      /* never answers */
    });
    const late = await transport(baseUrl, 60)
      .post('/slow', '{}', {}, '/slow')
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(TimeoutError);
    expect(wasCertainlyNotSent(late)).toBe(false);

    const free = await serve(() => undefined);
    const port = new URL(free).port;
    await closers.pop()?.(); // close that server: nothing listens on its port now
    const refused = await transport(`http://127.0.0.1:${port}`)
      .post('/x', '{}', {}, '/x')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NetworkError);
    expect(wasCertainlyNotSent(refused)).toBe(true);
  });
});
