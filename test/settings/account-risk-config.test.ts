import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { parseYamlConfig } from '../../src/settings/load-yaml.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { startSim } from '../../src/sim/start-sim.js';

const base = 'venue: { kind: sim }\nstrategies: [{ id: a, use: market-maker, market: BTC_USDT }]';
const parse = (extra: string) => parseYamlConfig(`${base}\n${extra}`, DaemonConfigSchema, 'x.yaml', {});

describe('risk.account in the daemon config', () => {
  it('is off when absent, and takes decimals for the three limits', () => {
    expect(parse('').risk).toBeUndefined();
    const cfg = parse('risk: { account: { maxDrawdown: 300, maxDailyLoss: "200.5", maxGrossNotional: 20000 } }');
    expect([cfg.risk?.account?.maxDrawdown?.toFixed(), cfg.risk?.account?.maxDailyLoss?.toFixed(), cfg.risk?.account?.maxGrossNotional?.toFixed()]).toEqual([
      '300',
      '200.5',
      '20000',
    ]);
    expect(parse('risk: { account: { maxDailyLoss: 1 } }').risk?.account?.maxDrawdown).toBeUndefined();
  });

  it('names the file, the line and the key path of a bad value, an unknown key or an empty block', () => {
    const bad = (extra: string) => () => parse(extra);
    expect(bad('risk: { account: { maxDrawdown: -5 } }')).toThrow(/^x\.yaml:3:\d+: risk\.account\.maxDrawdown: expected a decimal greater than 0/m);
    expect(bad('risk: { account: { maxDailyLoss: lots } }')).toThrow(/x\.yaml:3:\d+: risk\.account\.maxDailyLoss: /);
    expect(bad('risk: { account: { maxDrawDown: 5 } }')).toThrow(/risk\.account.*maxDrawDown/);
    expect(bad('risk: { maxDrawdown: 5 }')).toThrow(/risk.*maxDrawdown/);
    expect(bad('risk: { account: {} }')).toThrow(/risk\.account: expected at least one of maxDrawdown, maxDailyLoss, maxGrossNotional/);
    expect(bad('risk: { account: { maxDrawdown: 5 } }\nrisk2: 1')).toThrow(ConfigError);
  });

  it('a daemon whose strategies trade markets of different money assets refuses account limits, naming the file and key', async () => {
    const sim = await startSim({
      port: 0,
      config: parseSimConfig({
        ...DEFAULT_SIM_CONFIG_INPUT,
        flow: undefined,
        markets: [
          ...DEFAULT_SIM_CONFIG_INPUT.markets,
          {
            name: 'ETH_BTC',
            stock: 'ETH',
            money: 'BTC',
            stockPrec: 4,
            moneyPrec: 6,
            minAmount: '0.001',
            minTotal: '0.0001',
            maxTotal: '0',
            makerFee: '0.1',
            takerFee: '0.1',
          },
        ],
      }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'account-config-'));
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const configPath = join(dir, 'daemon.yaml');
      writeFileSync(
        configPath,
        [
          'venue:',
          '  kind: rest',
          `  baseUrl: ${sim.baseUrl}`,
          '  apiKey: ${K}',
          '  apiSecret: ${S}',
          'strategies:',
          '  - { id: mm-btc, use: market-maker, market: BTC_USDT, risk: { unlimited: true } }',
          '  - { id: mm-ethbtc, use: market-maker, market: ETH_BTC, risk: { unlimited: true } }',
          `journal: { path: ${join(dir, 'journal.jsonl')} }`,
          'log: { level: silent }',
          'risk: { account: { maxDrawdown: 50 } }',
        ].join('\n'),
      );
      const run = runDaemon({
        configPath,
        env: { K: account.apiKey, S: account.apiSecret },
        out: new PassThrough(),
        until: new Promise((r) => setTimeout(r, 3000).unref()),
      });
      await expect(run).rejects.toThrow(ConfigError);
      await expect(run).rejects.toThrow(
        `${configPath}: risk.account: account limits add the strategies' PnL in one money asset, but their markets are in USDT (mm-btc) and BTC (mm-ethbtc)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await sim.close();
    }
  });
});
