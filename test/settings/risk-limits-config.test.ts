import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkBacktestLimits } from '../../backtest/run-from-config.js';
import { BacktestConfigSchema } from '../../backtest/backtest-config.js';
import { runDaemon } from '../../src/app/daemon.js';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { checkLimitTickers } from '../../src/settings/limit-tickers.js';
import { parseYamlConfig } from '../../src/settings/load-yaml.js';
import { refusal } from '../helpers/config-refusal.js';

/** Issue 24 item 6: limits that vanished without a word. */
const REPO = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'risk-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rest = 'venue: { kind: rest, baseUrl: "http://127.0.0.1:9", apiKey: k, apiSecret: s }\n';
const mm = (risk: string): string => `strategies:\n  - { id: mm, use: market-maker, market: BTC_USDT, risk: ${risk} }\n`;

describe('a strategy on a REST venue cannot start without maxOrderNotional and maxLoss', () => {
  it('is a config error naming the file, position and the missing limits', () => {
    expect(refusal(() => parseYamlConfig(rest + mm('{ maxOpenOrders: 4 }'), DaemonConfigSchema, 'x.yaml', {}))).toBe(
      'x.yaml:3:58: strategies[0].risk: a rest venue trades real money: give maxOrderNotional and maxLoss (or `unlimited: true` to run without them on purpose)',
    );
    expect(refusal(() => parseYamlConfig(`${rest}strategies: [{ id: mm, use: grid, market: BTC_USDT }]\n`, DaemonConfigSchema, 'x.yaml', {}))).toMatch(
      /strategies\[0\]\.risk: a rest venue .* give maxOrderNotional and maxLoss/,
    );
    expect(refusal(() => parseYamlConfig(rest + mm('{ maxLoss: 5, unlimited: false }'), DaemonConfigSchema, 'x.yaml', {}))).toMatch(
      /give maxOrderNotional \(or/,
    );
  });

  it('passes with both limits, or with `unlimited: true` (limits beside it still apply); a sim venue needs none', () => {
    expect(parseYamlConfig(rest + mm('{ maxOrderNotional: 100, maxLoss: 5 }'), DaemonConfigSchema, 'x.yaml', {}).strategies[0]!.risk.maxLoss?.toFixed()).toBe(
      '5',
    );
    expect(parseYamlConfig(rest + mm('{ unlimited: true, maxLoss: 5 }'), DaemonConfigSchema, 'x.yaml', {}).strategies[0]!.risk).toMatchObject({
      unlimited: true,
    });
    expect(parseYamlConfig(`venue: { kind: sim }\n${mm('{}')}`, DaemonConfigSchema, 'x.yaml', {}).strategies).toHaveLength(1);
  });
});

describe('every shipped config limits order notional, inventory and loss', () => {
  const configs = readdirSync(join(REPO, 'config')).filter((f) => f.endsWith('.yaml'));
  const withStrategies = configs.filter((f) => Array.isArray((parse(readFileSync(join(REPO, 'config', f), 'utf8')) as { strategies?: unknown }).strategies));

  it.each(withStrategies)('config/%s', (f) => {
    const { strategies } = parse(readFileSync(join(REPO, 'config', f), 'utf8')) as { strategies: { id: string; risk?: Record<string, unknown> }[] };
    for (const s of strategies)
      expect({ id: s.id, keys: Object.keys(s.risk ?? {}) }).toEqual({
        id: s.id,
        keys: expect.arrayContaining(['maxOrderNotional', 'maxInventory', 'maxLoss']),
      });
  });

  it('covers the daemon and backtest examples', () => {
    expect(withStrategies).toEqual(expect.arrayContaining(['backtest.yaml', 'default.yaml', 'grid.yaml', 'market-maker.yaml', 'stop-guard.yaml', 'twap.yaml']));
  });
});

describe('a maxInventory ticker the market lacks is a config error listing its tickers', () => {
  const markets = new Map([['BTC_USDT', { name: 'BTC_USDT', stock: 'BTC', money: 'USDT' }]]);

  it('checkLimitTickers: one line per bad key, the market and its tickers named', () => {
    const strategies = [
      { market: 'BTC_USDT', risk: { maxInventory: { BTX: 1, USDT: 5 } } },
      { market: 'BTC_USDT', risk: {} },
      { market: 'NOPE_X', risk: { maxInventory: { Q: 1 } } },
    ];
    expect(refusal(() => checkLimitTickers(strategies, markets, 'x.yaml'))).toBe(
      'x.yaml: strategies[0].risk.maxInventory.BTX: BTC_USDT has no asset BTX (it has BTC, USDT)',
    );
    expect(() => checkLimitTickers([{ market: 'BTC_USDT', risk: { maxInventory: { BTC: 1, USDT: 2 } } }], markets, 'x.yaml')).not.toThrow();
  });

  it('the daemon refuses `maxInventory: { BTX: 0.0001 }` on BTC_USDT (it started and limited nothing)', async () => {
    const file = join(dir, 'btx.yaml');
    writeFileSync(
      file,
      `venue: { kind: sim }\n${mm('{ maxInventory: { BTX: 0.0001 } }')}journal: { path: ${join(dir, 'btx.jsonl')} }\nlog: { level: silent }\n`,
    );
    let error: unknown;
    try {
      await runDaemon({ configPath: file, env: {}, out: new PassThrough(), until: Promise.resolve('test') });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(`${file}: strategies[0].risk.maxInventory.BTX: BTC_USDT has no asset BTX (it has BTC, USDT)`);
  }, 30_000);

  it('the backtest checks them against the data’s market', async () => {
    const cfg = parseYamlConfig(`balances: { BTC: 1 }\n${mm('{ maxInventory: { BTX: 0.0001 } }')}`, BacktestConfigSchema, 'bt.yaml', {});
    const data = [join(REPO, 'backtest/sample-data/sim-btc-usdt.jsonl.gz')];
    await expect(checkBacktestLimits(cfg, data, 'bt.yaml')).rejects.toThrow(
      'bt.yaml: strategies[0].risk.maxInventory.BTX: BTC_USDT has no asset BTX (it has BTC, USDT)',
    );
    const ok = parseYamlConfig(`balances: { BTC: 1 }\n${mm('{ maxInventory: { BTC: 0.1 } }')}`, BacktestConfigSchema, 'bt.yaml', {});
    await expect(checkBacktestLimits(ok, data, 'bt.yaml')).resolves.toBeUndefined();
  });
});
