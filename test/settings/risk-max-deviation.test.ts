import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BacktestConfigSchema } from '../../backtest/backtest-config.js';
import { maxDeviationOf } from '../../src/engine/price-band.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { loadYamlConfig, parseYamlConfig } from '../../src/settings/load-yaml.js';

const daemon = (risk: string) =>
  parseYamlConfig(`venue: { kind: sim }\nstrategies: [{ id: a, use: market-maker, market: BTC_USDT, risk: ${risk} }]`, DaemonConfigSchema, 'x.yaml', {});
const config = (name: string) => fileURLToPath(new URL(`../../config/${name}`, import.meta.url));

describe('risk.maxDeviation (the price band) in the configs', () => {
  it('absent: the default band (on for every strategy); a fraction; false or null: off', () => {
    expect(daemon('{}').strategies[0]!.risk.maxDeviation).toBeUndefined();
    expect(maxDeviationOf(daemon('{}').strategies[0]!.risk)?.toFixed()).toBe('0.05');
    expect(maxDeviationOf(daemon('{ maxDeviation: 0.02 }').strategies[0]!.risk)?.toFixed()).toBe('0.02');
    expect(maxDeviationOf(daemon('{ maxDeviation: "0.015" }').strategies[0]!.risk)?.toFixed()).toBe('0.015');
    expect(daemon('{ maxDeviation: false }').strategies[0]!.risk.maxDeviation).toBe(false);
    expect(daemon('{ maxDeviation: null }').strategies[0]!.risk.maxDeviation).toBe(false);
    expect(maxDeviationOf(daemon('{ maxDeviation: false }').strategies[0]!.risk)).toBeUndefined();
  });

  it('anything else names the file, line and key path and says what is expected', () => {
    const message = (risk: string): string => {
      try {
        daemon(risk);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(message('{ maxDeviation: 0 }')).toMatch(
      /x\.yaml:2:\d+: strategies\[0\]\.risk\.maxDeviation: expected a fraction greater than 0 \(0\.05 = 5 %\), or false to turn the price band off, got 0/,
    );
    expect(message('{ maxDeviation: -0.1 }')).toMatch(/risk\.maxDeviation: .*got -0\.1/);
    expect(message('{ maxDeviation: five }')).toMatch(/risk\.maxDeviation: .*got a string/);
    expect(message('{ maxDeviation: true }')).toMatch(/risk\.maxDeviation: .*got true/);
  });

  it('the backtest config takes the same key, and every shipped config keeps the default band', () => {
    const bt = parseYamlConfig(
      'balances: { USDT: 1 }\nstrategies: [{ id: a, use: grid, market: BTC_USDT, risk: { maxDeviation: 0.08 } }]',
      BacktestConfigSchema,
      'b.yaml',
      {},
    );
    expect(maxDeviationOf(bt.strategies[0]!.risk)?.toFixed()).toBe('0.08');
    const env = { BOT_API_KEY: 'k', BOT_API_SECRET: 's' };
    for (const name of ['default.yaml', 'market-maker.yaml', 'grid.yaml', 'stop-guard.yaml', 'twap.yaml']) {
      for (const s of loadYamlConfig(config(name), DaemonConfigSchema, env).strategies) expect(s.risk.maxDeviation).toBeUndefined();
    }
  });
});
