import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { simAccount, withSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 24 item 8: `bot check <config.yaml>`, the go-live pre-flight, against the sim over loopback HTTP with the
 * real client: one line per check, `go-live: N/M checks passed`, exit 0 only when every check passes.
 */
const dir = mkdtempSync(join(tmpdir(), 'bot-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function restConfig(baseUrl: string, strategy: string, extra: string[] = []): string {
  const file = join(dir, `check-${++n}.yaml`);
  writeFileSync(
    file,
    [
      `venue: { kind: rest, baseUrl: "${baseUrl}", apiKey: "\${BOT_API_KEY}", apiSecret: "\${BOT_API_SECRET}" }`,
      'strategies:',
      `  - ${strategy}`,
      `journal: { path: ${join(dir, `j-${n}.jsonl`)} }`,
      ...extra,
    ].join('\n'),
  );
  return file;
}

const lines = (out: string): string[] => out.trimEnd().split('\n');

describe('bot check', () => {
  it('a config fit to go live: every line ok, exit 0', async () => {
    await withSim(async (sim) => {
      const account = simAccount(sim, false);
      const file = restConfig(
        sim.baseUrl,
        '{ id: mm-btc, use: market-maker, market: BTC_USDT, params: { size: 0.002 }, risk: { maxOrderNotional: 100, maxInventory: { BTC: 0.02 }, maxLoss: 20 } }',
        ['deadMan: { timeoutSec: 30 }'],
      );
      const r = await runBot(['check', file], { BOT_API_KEY: account.apiKey, BOT_API_SECRET: account.apiSecret });
      const out = lines(r.stdout);
      expect(out).toEqual([
        `ok   config ${file} loads (1 strategy, venue rest)`,
        `ok   journal ${join(dir, `j-${n}.jsonl`)}: none yet (the first run starts it)`,
        'ok   signed balance call (3 assets)',
        'ok   market BTC_USDT: tradable, steps 0.000001 / 0.01, minimum amount 0.001, minimum total 5.05',
        'ok   mm-btc: maxOrderNotional 100 and maxLoss 20 USDT set',
        'ok   mm-btc: maxInventory keyed by BTC',
        expect.stringMatching(/^ok {3}mm-btc: an order of 0\.002 BTC at ~\d+(\.\d+)? is \d+(\.\d+)? USDT, within the market's minimums and the limits$/),
        'ok   mm-btc: balance for at least one order (1000000 USDT, 10 BTC available)',
        'ok   dead-man timer configured: the venue cancels the orders 30 s after the daemon stops resetting it',
        'ok   kill-switch endpoint answers (status: none)',
        'go-live: 10/10 checks passed',
      ]);
      expect(r.code).toBe(0);
      // reads only: nothing that trades was sent
      expect(sim.stats.arrivalTimes('orderNew')).toHaveLength(0);
      expect(sim.stats.arrivalTimes('killSwitch')).toHaveLength(0);
      expect(sim.stats.arrivalTimes('killSwitchStatus')).toHaveLength(1);
    });
  }, 30_000);

  it('limits the market or the balance cannot honour: FAIL lines, a warning for the missing dead-man, exit 1', async () => {
    const poor = {
      ...DEFAULT_SIM_CONFIG_INPUT,
      accounts: DEFAULT_SIM_CONFIG_INPUT.accounts.map((a) => (a.name === 'bob' ? { ...a, trade: { USDT: '1', BTC: '0.0001' } } : a)),
    };
    await withSim({ config: parseSimConfig(poor) }, async (sim) => {
      const account = simAccount(sim, false);
      const file = restConfig(
        sim.baseUrl,
        '{ id: mm-btc, use: market-maker, market: BTC_USDT, params: { size: 0.01 }, risk: { maxOrderNotional: 3, maxInventory: { BTX: 1 }, maxLoss: 20 } }',
      );
      const r = await runBot(['check', file], { BOT_API_KEY: account.apiKey, BOT_API_SECRET: account.apiSecret });
      const out = lines(r.stdout);
      expect(out).toContain("FAIL mm-btc: maxOrderNotional 3 is below the market's minimum total 5.05: every order would be refused");
      expect(out).toContain('FAIL mm-btc: risk.maxInventory.BTX: BTC_USDT has no asset BTX (it has BTC, USDT)');
      expect(out).toContainEqual(expect.stringMatching(/^FAIL mm-btc: an order of 0\.01 BTC at ~[\d.]+ is [\d.]+ USDT, above maxOrderNotional 3$/));
      expect(out).toContainEqual(
        expect.stringMatching(/^FAIL mm-btc: not enough balance for one order: 1 USDT, 0\.0001 BTC available; a buy needs [\d.]+ USDT, a sell 0\.01 BTC$/),
      );
      expect(out).toContainEqual(expect.stringMatching(/^warn no deadMan: /));
      expect(out.at(-1)).toMatch(/^go-live: \d+\/\d+ checks passed$/);
      expect(r.code).toBe(1);
    });
  }, 30_000);

  it('a key the venue refuses: one line naming BOT_API_KEY and BOT_API_SECRET, exit 2', async () => {
    await withSim({ flow: false }, async (sim) => {
      const account = simAccount(sim, false);
      const file = restConfig(sim.baseUrl, '{ id: g, use: grid, market: BTC_USDT, risk: { unlimited: true } }');
      const r = await runBot(['check', file], { BOT_API_KEY: account.apiKey, BOT_API_SECRET: 'wrong-secret-0123456' });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `bot: ${file}: venue.apiKey / venue.apiSecret: the venue refused the key (HTTP 401, /api/v4/trade-account/balance: Unauthorized request.): check the venue.apiKey / venue.apiSecret values (BOT_API_KEY, BOT_API_SECRET) [ERR_CONFIG]\n`,
      );
    });
  }, 30_000);

  it('a config that does not load: one FAIL line with the file and key, exit 2; an unreachable venue: exit 3', async () => {
    const bad = restConfig('http://127.0.0.1:9', '{ id: g, use: grid, market: BTC_USDT }');
    const r = await runBot(['check', bad], { BOT_API_KEY: 'k', BOT_API_SECRET: 's' });
    expect(lines(r.stdout)).toEqual([
      `FAIL config ${bad} does not load: ${bad}:3:5: strategies[0].risk: a rest venue trades real money: give maxOrderNotional and maxLoss (or \`unlimited: true\` to run without them on purpose)`,
      'go-live: 0/1 checks passed',
    ]);
    expect(r.code).toBe(2);
    const away = restConfig('http://127.0.0.1:9', '{ id: g, use: grid, market: BTC_USDT, risk: { unlimited: true } }');
    const gone = await runBot(['check', away], { BOT_API_KEY: 'k', BOT_API_SECRET: 's' });
    expect(lines(gone.stdout)).toContainEqual(expect.stringMatching(/^FAIL signed balance call: .*ECONNREFUSED/));
    expect(gone.code).toBe(3);
  }, 60_000);
});
