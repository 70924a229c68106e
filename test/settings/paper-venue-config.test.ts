import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { PaperUpstreamError } from '../../src/app/paper-venue.js';
import { runPreflight } from '../../src/app/preflight.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { loadYamlConfig, parseYamlConfig } from '../../src/settings/load-yaml.js';
import { paperStaleAfterMs } from '../../src/settings/paper-venue-config.js';
import { withSim } from '../helpers/with-sim.js';
import { refusal } from '../helpers/config-refusal.js';

const dir = mkdtempSync(join(tmpdir(), 'paper-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mm = 'strategies:\n  - { id: mm, use: market-maker, market: BTC_USDT }\n';
const parse = (venue: string) => parseYamlConfig(`venue: ${venue}\n${mm}`, DaemonConfigSchema, 'p.yaml', {});

describe('venue: { kind: paper } in the daemon config', () => {
  it('takes an upstream and balances; the rest has defaults; no key and no limits are needed (no real money)', () => {
    const cfg = parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 5000, BTC: "0.01" } }');
    expect(cfg.venue.kind).toBe('paper');
    if (cfg.venue.kind !== 'paper') return;
    expect(cfg.venue.upstream).toEqual({ region: 'main', bookMs: 1000, tradesMs: 2000, bookLimit: 50, timeoutMs: 3000 });
    expect(Object.fromEntries(Object.entries(cfg.venue.balances).map(([t, b]) => [t, b.toFixed()]))).toEqual({ USDT: '5000', BTC: '0.01' });
    expect(cfg.venue.fees).toBeUndefined();
    expect(paperStaleAfterMs(cfg.venue.upstream)).toBe(3000);
    const custom = parse(
      '{ kind: paper, upstream: { baseUrl: "http://127.0.0.1:8080", bookMs: 2000 }, balances: { USDT: 1 }, fees: { maker: 0, taker: 0.002 }, fills: pessimistic }',
    );
    if (custom.venue.kind !== 'paper') return;
    expect([custom.venue.fees?.maker.toFixed(), custom.venue.fees?.taker.toFixed(), custom.venue.fills]).toEqual(['0', '0.002', 'pessimistic']);
    expect(paperStaleAfterMs(custom.venue.upstream)).toBe(6000);
  });

  it('refuses a bad paper venue with the key path and what was expected', () => {
    expect(refusal(() => parse('{ kind: paper, upstream: {}, balances: { USDT: 1 } }'))).toMatch(
      /^p\.yaml:1:\d+: venue\.upstream: expected region \(main or eu\) or baseUrl/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main, baseUrl: "http://x.test" }, balances: { USDT: 1 } }'))).toMatch(
      /venue\.upstream\.baseUrl: give region or baseUrl, not both/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main } }'))).toMatch(/venue\.balances/);
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: {} }'))).toMatch(/venue\.balances: expected at least one ticker/);
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { usdt: 1 } }'))).toMatch(
      /venue\.balances.*expected an asset ticker such as BTC/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: -1 } }'))).toMatch(
      /venue\.balances\.USDT: expected a decimal of 0 or more, got -1/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fees: { maker: 0.1, taker: 2 } }'))).toMatch(
      /venue\.fees\.taker: expected a fraction between 0 and 1 \(0\.001 = 0\.1 %\), got 2/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main, bookMS: 500 }, balances: { USDT: 1 } }'))).toMatch(
      /venue\.upstream\.bookMS: unknown key \(did you mean `bookMs`\?\)/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, apiKey: k }'))).toMatch(/venue\.apiKey: unknown key/);
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fills: maybe }'))).toMatch(
      /venue\.fills: expected pessimistic or optimistic, got "maybe"/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fills: 1 }'))).toMatch(
      /venue\.fills: expected pessimistic or optimistic, got an integer/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fillModel: { queueAhead: 2 } }'))).toMatch(
      /venue\.fillModel\.queueAhead: expected a share between 0 and 1/,
    );
    expect(refusal(() => parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fillModel: { queue: 0 } }'))).toMatch(
      /venue\.fillModel\.queue: unknown key/,
    );
  });

  it('takes either fill assumption, pessimistic by default, and the optimistic one’s fillModel block as a backtest config does', () => {
    const plain = parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 } }');
    expect(plain.venue).toMatchObject({ kind: 'paper', fills: 'pessimistic' });
    expect(plain.venue.kind === 'paper' && plain.venue.fillModel).toBeUndefined();
    const optimistic = parse('{ kind: paper, upstream: { region: main }, balances: { USDT: 1 }, fills: optimistic, fillModel: { queueAhead: 0.25 } }');
    expect(optimistic.venue).toMatchObject({ kind: 'paper', fills: 'optimistic', fillModel: { queueAhead: 0.25, decreaseTrades: 1 } });
  });
});

describe('config/paper.yaml', () => {
  it('loads with no key in the environment: the main region’s public data, limits, the dead-man timer, the ops surface and the recording on', () => {
    const cfg = loadYamlConfig(fileURLToPath(new URL('../../config/paper.yaml', import.meta.url)), DaemonConfigSchema, {});
    expect(cfg.venue).toMatchObject({ kind: 'paper', upstream: { region: 'main' }, fills: 'pessimistic' });
    expect(cfg.record).toEqual({ path: 'var/recordings', rotate: { maxBytes: 50 * 1024 ** 2, daily: true } });
    expect(cfg.deadMan?.timeoutSec).toBe(30);
    expect(cfg.http?.listen).toBe('127.0.0.1:9464');
    expect(cfg.strategies.map((s) => [s.market, s.risk.maxOrderNotional?.toFixed(), s.risk.maxLoss?.toFixed()])).toEqual([['BTC_USDT', '250', '50']]);
  });

  it('passes bot check as shipped, its upstream moved to a loopback sim (bot check reads the upstream; tests never reach the real exchange)', async () => {
    const shipped = readFileSync(fileURLToPath(new URL('../../config/paper.yaml', import.meta.url)), 'utf8');
    await withSim(async (upstream) => {
      const moved = shipped.replace(/^(\s*)region: main\b.*$/m, `$1baseUrl: "${upstream.baseUrl}"`);
      expect(moved).not.toBe(shipped);
      const cwd = mkdtempSync(join(dir, 'check-'));
      const configPath = join(cwd, 'paper.yaml');
      writeFileSync(configPath, moved);
      const r = await runPreflight({ configPath, env: {}, cwd });
      expect(r.checks.filter((c) => c.status !== 'ok')).toEqual([]);
      expect(r.exitCode).toBe(0);
      expect(r.checks[0]?.text).toBe(`config ${configPath} loads (1 strategy, venue paper)`);
      // a check changes nothing: the journal's and the recording's folders are not made
      expect(existsSync(join(cwd, 'var'))).toBe(false);
    });
  });
});

describe('opening a paper venue', () => {
  const config = (name: string, venue: string): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, `venue: ${venue}\n${mm}journal: { path: ${join(dir, `${name}.jsonl`)} }\nlog: { level: silent }\n`);
    return file;
  };
  const failure = async (configPath: string): Promise<unknown> => {
    try {
      await runDaemon({ configPath, env: {}, out: new PassThrough(), until: Promise.resolve('test') });
    } catch (e) {
      return e;
    }
    throw new Error('expected the daemon to refuse the config');
  };

  it('refuses a market the upstream lacks and a balance in an asset no traded market has, naming the key', async () => {
    await withSim({ flow: false }, async (upstream) => {
      const noMarket = config('no-market', `{ kind: paper, upstream: { baseUrl: "${upstream.baseUrl}" }, balances: { USDT: 1 } }`);
      writeFileSync(
        noMarket,
        `venue: { kind: paper, upstream: { baseUrl: "${upstream.baseUrl}" }, balances: { USDT: 1 } }\nstrategies: [{ id: mm, use: market-maker, market: DOGE_USDT }]\nlog: { level: silent }\njournal: { path: ${join(dir, 'nm.jsonl')} }\n`,
      );
      const e1 = await failure(noMarket);
      expect(e1).toBeInstanceOf(ConfigError);
      expect((e1 as Error).message).toBe(`${noMarket}: venue.upstream: ${upstream.baseUrl} has no market DOGE_USDT (the strategies trade it)`);

      const badTicker = config('bad-ticker', `{ kind: paper, upstream: { baseUrl: "${upstream.baseUrl}" }, balances: { USDT: 1, ETH: 2 } }`);
      const e2 = await failure(badTicker);
      expect((e2 as Error).message).toBe(`${badTicker}: venue.balances.ETH: no traded market has asset ETH (they have BTC, USDT)`);
      expect(exitCodeFor(e2)).toBe(2);
    });
  });

  it('an upstream that does not answer at the start: a venue error naming it (exit 3), not a stack trace', async () => {
    const file = config('dead', '{ kind: paper, upstream: { baseUrl: "http://127.0.0.1:9", timeoutMs: 500 }, balances: { USDT: 1 } }');
    const e = await failure(file);
    expect(e).toBeInstanceOf(PaperUpstreamError);
    expect((e as Error).message).toMatch(/^paper venue: the upstream http:\/\/127\.0\.0\.1:9 did not give its markets: /);
    expect(exitCodeFor(e)).toBe(3);
  });
});
