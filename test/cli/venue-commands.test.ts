import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

const COMMANDS = [['ping'], ['markets'], ['book'], ['balance'], ['order'], ['stop-limit'], ['cancel'], ['orders'], ['code', 'create'], ['investments']];

describe('bot venue commands against the sim', () => {
  const sim = useSim({ flow: false });

  async function env(partner = true): Promise<{ url: string; creds: Record<string, string> }> {
    const s = await sim();
    const a = simAccount(s, partner);
    return { url: s.baseUrl, creds: { BOT_API_KEY: a.apiKey, BOT_API_SECRET: a.apiSecret, BOT_BASE_URL: '' } };
  }

  it.each(COMMANDS)('bot %s --help exits 0 and documents the venue options', async (...cmd) => {
    const r = await runBot([...cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--base-url');
    expect(r.stdout).toContain('--json');
    expect(r.stdout).toContain('BOT_API_KEY');
  });

  it('the real bin/bot.js: exit code and stdout of a separate process', async () => {
    const { url } = await env();
    const bin = fileURLToPath(new URL('../../bin/bot.js', import.meta.url));
    const run = (args: string[]): Promise<{ code: number; stdout: string }> =>
      new Promise((resolve) => {
        execFile(process.execPath, [bin, ...args], { env: { ...process.env, BOT_API_KEY: '', BOT_API_SECRET: '' } }, (error, stdout) =>
          resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout }),
        );
      });
    expect(await run(['ping', '--base-url', url])).toEqual({ code: 0, stdout: 'pong\n' });
    expect((await run(['balance', '--base-url', url])).code).toBe(2);
  });

  it('ping, markets and book: tables, and --json with decimals as strings', async () => {
    const { url } = await env();
    expect(await runBot(['ping', '--base-url', url])).toMatchObject({ code: 0, stdout: 'pong\n' });
    const markets = await runBot(['markets', '--base-url', url, '--json']);
    expect(markets.code).toBe(0);
    const list = JSON.parse(markets.stdout) as { name: string; makerFee: unknown; maxTotal: unknown }[];
    expect(list.find((m) => m.name === 'BTC_USDT')).toMatchObject({ makerFee: '0.001', maxTotal: null });
    const table = await runBot(['markets', '--base-url', url]);
    expect(table.stdout).toMatch(/^MARKET\s+STOCK/);
    expect(table.stdout).toContain('BTC_USDT');
    const book = await runBot(['book', 'BTC_USDT', '--limit', '5', '--level', '0', '--base-url', url, '--json']);
    expect(book.code).toBe(0);
    expect(JSON.parse(book.stdout)).toMatchObject({ market: 'BTC_USDT' });
  });

  it('order, orders, cancel by client id, stop-limit, balance, in both dialects', async () => {
    const { url, creds } = await env();
    for (const dialect of ['contract', 'exchange']) {
      const id = `cli-${dialect}`;
      const placed = await runBot(
        ['order', 'BTC_USDT', 'buy', '0.01', '29000', '--post-only', '--client-id', id, '--dialect', dialect, '--base-url', url, '--json'],
        creds,
      );
      expect(placed.stderr).toBe('');
      expect(placed.code).toBe(0);
      expect(JSON.parse(placed.stdout)).toMatchObject({ clientOrderId: id, price: '29000', amount: '0.01', postOnly: true });
      const open = await runBot(['orders', 'BTC_USDT', '--base-url', url, '--dialect', dialect], creds);
      expect(open.stdout).toContain(id);
      const cancelled = await runBot(['cancel', 'BTC_USDT', '--client-id', id, '--base-url', url, '--dialect', dialect], creds);
      expect(cancelled.code).toBe(0);
      expect(cancelled.stdout).toMatch(/client id\s+cli-/);
    }
    const stop = await runBot(['stop-limit', 'BTC_USDT', 'sell', '0.01', '28900', '29000', '--client-id', 'g-1', '--base-url', url, '--json'], creds);
    expect(JSON.parse(stop.stdout)).toMatchObject({ kind: 'stop-limit', activationPrice: '29000' });
    const balance = await runBot(['balance', '--base-url', url], creds);
    expect(balance.code).toBe(0);
    expect(balance.stdout).toMatch(/USDT\s+10000\s+/);
  });

  it('exit codes: 1 rejected by the venue, 2 usage or config, 3 unreachable', async () => {
    const { url, creds } = await env();
    const tiny = await runBot(['order', 'BTC_USDT', 'buy', '0.0001', '1', '--base-url', url], creds);
    expect(tiny.code).toBe(1);
    expect(tiny.stderr).toMatch(/venue code 3\d/);
    expect((await runBot(['cancel', 'BTC_USDT', '12345', '--base-url', url], creds)).code).toBe(1);
    expect((await runBot(['order', 'BTC_USDT', 'hold', '1', '1', '--base-url', url], creds)).code).toBe(2);
    expect((await runBot(['order', 'BTC_USDT', 'buy', 'lots', '1', '--base-url', url], creds)).code).toBe(2);
    expect((await runBot(['cancel', 'BTC_USDT', '--base-url', url], creds)).code).toBe(2);
    expect((await runBot(['balance', '--base-url', url], { BOT_API_KEY: undefined, BOT_API_SECRET: undefined })).code).toBe(2);
    const wrong = await runBot(['balance', '--base-url', url], { ...creds, BOT_API_SECRET: 'wrong-secret-value' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).not.toContain('wrong-secret-value');
    const { bob } = { bob: await env(false) };
    expect((await runBot(['investments', '--base-url', bob.url], bob.creds)).code).toBe(1);
    expect((await runBot(['ping', '--base-url', 'http://127.0.0.1:1', '--timeout', '2000'])).code).toBe(3);
  });

  it('code create prints the code exactly once and nowhere else; investments lists records', async () => {
    const { url, creds } = await env();
    const r = await runBot(['code', 'create', 'USDT', '12.5', '--passphrase', 'p@ss', '--description', 'gift', '--base-url', url], creds);
    expect(r.code).toBe(0);
    const code = /code\s+(\S+)/.exec(r.stdout)?.[1];
    expect(code).toBeDefined();
    expect(r.stdout.split(code!).length - 1).toBe(1);
    expect(r.stderr).toBe('');
    const inv = await runBot(['investments', '--status', '1', '--limit', '3', '--base-url', url, '--json'], creds);
    expect(inv.code).toBe(0);
    const page = JSON.parse(inv.stdout) as { limit: number; records: { status: number; amount: string }[] };
    expect(page.limit).toBe(3);
    expect(page.records.every((x) => x.status === 1 && typeof x.amount === 'string')).toBe(true);
  });
});
