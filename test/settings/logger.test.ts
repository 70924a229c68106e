import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BotError, ConfigError } from '../../src/model/errors.js';
import { createLogger, redactPaths } from '../../src/settings/logger.js';

const SECRET = 'api-secret-7f3a9c0d1e';
const PASSPHRASE = 'Pass!phrase#42';
const CREATED_CODE = 'USDT-Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5';
const SIGNATURE = 'ac3fe0a34a8002a196ee9ac6d965410b';
const PAYLOAD = 'eyJyZXF1ZXN0IjoiL2FwaS92NC9vcmRlci9uZXcifQ==';

function capture(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => out };
}

/** Logs every shape a secret can arrive in: top level, nested, headers, errors, created codes. */
function logEverything(log: ReturnType<typeof createLogger>): void {
  log.info({ apiSecret: SECRET, secret: SECRET, passphrase: PASSPHRASE }, 'top level');
  log.info({ venue: { apiKey: 'public-key', apiSecret: SECRET }, code: { passphrase: PASSPHRASE } }, 'nested');
  log.info({ result: { code: CREATED_CODE, external_id: 'ext-1', message: 'Code was successfully created' } }, 'code created');
  log.info({ response: { body: { code: CREATED_CODE } } }, 'deeper');
  log.debug({ headers: { 'x-txc-apikey': 'public-key', 'x-txc-payload': PAYLOAD, 'x-txc-signature': SIGNATURE } }, 'request');
  log.debug({ req: { headers: { 'X-TXC-PAYLOAD': PAYLOAD, 'X-TXC-SIGNATURE': SIGNATURE } }, payload: PAYLOAD, signature: SIGNATURE }, 'raw');
  log.warn({ err: new BotError('signing failed', { code: 'ERR_VENUE_AUTH' }), body: { code: 30 } }, 'rejected');
}

describe('createLogger redaction', () => {
  for (const pretty of [false, true]) {
    it(`never writes a secret, passphrase, created code, payload or signature (${pretty ? 'pretty' : 'JSON'})`, () => {
      const { stream, text } = capture();
      logEverything(createLogger({ destination: stream, pretty, level: 'debug' }));
      const out = text();
      expect(out.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(pretty ? 7 : 7);
      for (const s of [SECRET, PASSPHRASE, CREATED_CODE, SIGNATURE, PAYLOAD]) expect(out).not.toContain(s);
      expect(out).toContain('[redacted]');
      // What an operator needs stays readable: messages, public key, error codes.
      expect(out).toContain('code created');
      expect(out).toContain('public-key');
      expect(out).toContain('ERR_VENUE_AUTH');
    });
  }

  it('keeps numeric venue codes and error codes, hides other values under `code`', () => {
    const { stream, text } = capture();
    const log = createLogger({ destination: stream, pretty: false });
    log.info({ body: { code: 30 }, err: { code: 'ECONNREFUSED' }, created: { code: 'ABC-123' } }, 'x');
    const line = JSON.parse(text()) as Record<string, { code: unknown }>;
    expect([line.body?.code, line.err?.code, line.created?.code]).toEqual([30, 'ECONNREFUSED', '[redacted]']);
  });

  it('scrubs known secret values wherever they appear, e.g. inside a message', () => {
    const { stream, text } = capture();
    const log = createLogger({ destination: stream, pretty: false, secrets: [SECRET, 'a"b\\c-quoted'] });
    log.error({ err: new Error(`bad key ${SECRET}`), note: 'x a"b\\c-quoted y' }, `failed with ${SECRET}`);
    expect(text()).not.toContain(SECRET);
    expect(text()).not.toContain('a\\"b\\\\c-quoted');
    expect(text().match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('writes JSON with level, time, name and message', () => {
    const { stream, text } = capture();
    createLogger({ destination: stream, pretty: false, name: 'bot' }).info({ n: 1 }, 'hello');
    expect(JSON.parse(text())).toMatchObject({ level: 30, name: 'bot', n: 1, msg: 'hello' });
  });

  it('honours the level and rejects an unknown one', () => {
    const { stream, text } = capture();
    const log = createLogger({ destination: stream, pretty: false, level: 'warn' });
    log.info('hidden');
    log.warn('shown');
    expect(text()).not.toContain('hidden');
    expect(text()).toContain('shown');
    expect(() => createLogger({ level: 'loud' })).toThrow(ConfigError);
  });

  it('appends to a file path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'logger-test-'));
    try {
      const file = path.join(dir, 'logs', 'bot.log');
      const log = createLogger({ destination: file, pretty: false });
      log.info({ apiSecret: SECRET }, 'to file');
      log.flush();
      const out = readFileSync(file, 'utf8');
      expect(out).toContain('to file');
      expect(out).not.toContain(SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exports its redaction paths for reuse', () => {
    expect(redactPaths).toEqual(expect.arrayContaining(['apiSecret', '*.apiSecret', '*.passphrase', '*.code', 'payload', 'signature']));
  });
});
