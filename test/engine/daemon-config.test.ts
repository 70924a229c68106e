import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/sim/embedded-sim-config.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { loadYamlConfig, parseYamlConfig } from '../../src/settings/load-yaml.js';

const config = (name: string) => fileURLToPath(new URL(`../../config/${name}`, import.meta.url));

describe('daemon config', () => {
  it('the shipped configs are valid (default.yaml = embedded sim + market maker; market-maker.yaml = REST venue)', () => {
    const def = loadYamlConfig(config('default.yaml'), DaemonConfigSchema, {});
    expect(def.venue.kind).toBe('sim');
    expect(def.strategies.map((s) => s.use)).toEqual(['market-maker']);
    expect(def.shutdown.cancelOpenOrders).toBe(true);
    const mm = loadYamlConfig(config('market-maker.yaml'), DaemonConfigSchema, { BOT_API_KEY: 'k', BOT_API_SECRET: 's' });
    expect(mm.venue).toMatchObject({ kind: 'rest', baseUrl: 'http://127.0.0.1:8080', dialect: 'contract', apiKey: 'k' });
    expect(mm.strategies[0]?.risk.maxInventory?.['BTC']?.toFixed()).toBe('0.02');
  });

  it('applies defaults and refuses duplicates, unknown keys and region+baseUrl together', () => {
    const ok = parseYamlConfig('venue: { kind: sim }\nstrategies: [{ id: a, use: market-maker, market: BTC_USDT }]', DaemonConfigSchema, 'x.yaml', {});
    expect(ok).toMatchObject({
      journal: { path: 'var/journal.jsonl', fsync: 'background' },
      status: { everyMs: 5000 },
      executor: { concurrency: 1, bulk: false },
    });
    const bulk = parseYamlConfig(
      'venue: { kind: sim }\nstrategies: [{ id: a, use: market-maker, market: BTC_USDT }]\nexecutor: { bulk: true }',
      DaemonConfigSchema,
      'x.yaml',
      {},
    );
    expect(bulk.executor).toEqual({ concurrency: 1, bulk: true });
    const bad = (text: string) => () => parseYamlConfig(text, DaemonConfigSchema, 'x.yaml', {});
    expect(bad('venue: { kind: sim }\nstrategies: [{ id: a, use: m, market: X }, { id: a, use: m, market: Y }]')).toThrow(/duplicate strategy id 'a'/);
    expect(bad('venue: { kind: sim, colour: red }\nstrategies: [{ id: a, use: m, market: X }]')).toThrow(/colour/);
    expect(bad('venue: { kind: rest, region: main, baseUrl: "http://h", apiKey: k, apiSecret: s }\nstrategies: [{ id: a, use: m, market: X }]')).toThrow(
      /region or baseUrl/,
    );
    expect(bad('venue: { kind: sim }\nstrategies: [{ id: "a_b", use: m, market: X }]')).toThrow(/strategies\[0\]\.id/);
    expect(bad('venue: { kind: sim }\nstrategies: [{ id: a, use: m, market: X }]\nexecutor: { bulk: yes please }')).toThrow(/executor\.bulk/);
  });

  it('deadMan: off when absent, timeoutSec 5-600 (default 30), strict; on in default.yaml and the REST example, off for grid and stop-guard', () => {
    const base = 'venue: { kind: sim }\nstrategies: [{ id: a, use: market-maker, market: BTC_USDT }]';
    expect(parseYamlConfig(base, DaemonConfigSchema, 'x.yaml', {}).deadMan).toBeUndefined();
    expect(parseYamlConfig(`${base}\ndeadMan: { timeoutSec: 5 }`, DaemonConfigSchema, 'x.yaml', {}).deadMan).toEqual({ timeoutSec: 5 });
    expect(parseYamlConfig(`${base}\ndeadMan: {}`, DaemonConfigSchema, 'x.yaml', {}).deadMan).toEqual({ timeoutSec: 30 });
    const bad = (text: string) => () => parseYamlConfig(`${base}\n${text}`, DaemonConfigSchema, 'x.yaml', {});
    expect(bad('deadMan: { timeoutSec: 4 }')).toThrow(/x\.yaml:3:\d+: deadMan\.timeoutSec/);
    expect(bad('deadMan: { timeoutSec: 601 }')).toThrow(/deadMan\.timeoutSec/);
    expect(bad('deadMan: { timeoutSec: 2.5 }')).toThrow(/deadMan\.timeoutSec/);
    expect(bad('deadMan: { timeout: 30 }')).toThrow(/deadMan.*timeout/);
    const env = { BOT_API_KEY: 'k', BOT_API_SECRET: 's' };
    expect(loadYamlConfig(config('default.yaml'), DaemonConfigSchema, {}).deadMan).toEqual({ timeoutSec: 30 });
    // the ops surface is on for a newcomer, on loopback, read-only until a token is given
    expect(loadYamlConfig(config('default.yaml'), DaemonConfigSchema, {}).http).toEqual({ listen: '127.0.0.1:9464', historyPoints: 900 });
    expect(loadYamlConfig(config('default.yaml'), DaemonConfigSchema, { BOT_HTTP_TOKEN: 'x'.repeat(20) }).http?.token).toBe('x'.repeat(20));
    expect(loadYamlConfig(config('market-maker.yaml'), DaemonConfigSchema, env).deadMan).toEqual({ timeoutSec: 30 });
    expect(loadYamlConfig(config('twap.yaml'), DaemonConfigSchema, env).deadMan).toEqual({ timeoutSec: 30 });
    expect(loadYamlConfig(config('grid.yaml'), DaemonConfigSchema, env).deadMan).toBeUndefined();
    expect(loadYamlConfig(config('stop-guard.yaml'), DaemonConfigSchema, env).deadMan).toBeUndefined();
  });

  it('deep-merges sim overrides: objects merge, arrays and scalars replace', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 })).toEqual({ a: { b: 1, c: [3] }, d: 1, e: 2 });
  });
});
