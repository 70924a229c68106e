import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'bot-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bot bulk, cancel-all and order-history against the sim', () => {
  const sim = useSim({ flow: false });

  it.each(['bulk', 'cancel-all', 'order-history'])('bot %s --help exits 0 and documents the venue options', async (cmd) => {
    const r = await runBot([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--base-url');
    expect(r.stdout).toContain('BOT_API_KEY');
  });

  it.each(['contract', 'exchange'])('bulk with a refused order (exit 1), cancel-all, then the history of a filled order (%s dialect)', async (dialect) => {
    const s = await sim();
    const a = simAccount(s, true);
    const b = simAccount(s, false);
    const creds = { BOT_API_KEY: a.apiKey, BOT_API_SECRET: a.apiSecret, BOT_BASE_URL: s.baseUrl };
    const file = join(dir, `orders-${dialect}.json`);
    writeFileSync(
      file,
      JSON.stringify([
        { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '29000', clientOrderId: 'k-1' },
        { market: 'BTC_USDT', side: 'buy', amount: '0.0000001', price: '29000', clientOrderId: 'k-2' },
        { market: 'BTC_USDT', side: 'sell', amount: '0.01', price: '31000', clientOrderId: 'k-3', postOnly: true },
      ]),
    );
    const bulk = await runBot(['bulk', file, '--dialect', dialect], creds);
    expect(bulk.code).toBe(1);
    expect(bulk.stdout).toMatch(/^#\s+STATUS/);
    expect(bulk.stdout).toMatch(/1\s+placed\s+k-1/);
    expect(bulk.stdout).toMatch(/2\s+rejected\s+k-2\s+-\s+32/);
    expect(bulk.stdout).toMatch(/3\s+placed\s+k-3/);
    const json = await runBot(['orders', 'BTC_USDT', '--json', '--dialect', dialect], creds);
    expect((JSON.parse(json.stdout) as { clientOrderId: string }[]).map((o) => o.clientOrderId).sort()).toEqual(['k-1', 'k-3']);

    const all = await runBot(['cancel-all', 'BTC_USDT', '--json', '--dialect', dialect], creds);
    expect(all).toMatchObject({ code: 0 });
    expect(JSON.parse(all.stdout)).toEqual({ market: 'BTC_USDT', cancelled: true });
    expect(JSON.parse((await runBot(['orders', 'BTC_USDT', '--json'], creds)).stdout)).toEqual([]);

    await runBot(['order', 'BTC_USDT', 'sell', '0.01', '30000', '--client-id', 'k-sold'], creds);
    await runBot(['order', 'BTC_USDT', 'buy', '0.01', '30000'], { ...creds, BOT_API_KEY: b.apiKey, BOT_API_SECRET: b.apiSecret });
    const history = await runBot(['order-history', 'BTC_USDT', '--json', '--dialect', dialect], creds);
    expect(history.code).toBe(0);
    expect(JSON.parse(history.stdout)).toMatchObject([{ clientOrderId: 'k-sold', dealStock: '0.01', dealMoney: '300', status: 'FILLED', feeAsset: 'USDT' }]);
    const table = await runBot(['order-history', '--status', 'filled'], creds);
    expect(table.stdout).toMatch(/^ORDER ID\s+CLIENT ID/);
    expect(table.stdout).toContain('k-sold');
  });

  it('a bad orders file names the file, the item and the field, exit 2, nothing sent', async () => {
    const s = await sim();
    const a = simAccount(s, true);
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify([{ market: 'BTC_USDT', side: 'buy', amount: '0.01', price: 'cheap' }]));
    const r = await runBot(['bulk', file, '--base-url', s.baseUrl], { BOT_API_KEY: a.apiKey, BOT_API_SECRET: a.apiSecret });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: [0].price`);
    expect(s.stats.arrivalTimes('orderBulk')).toHaveLength(0);
  });
});
