import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkChild, checkInProcess, judge } from './config-check.js';
import { fuzzConfigs } from './fuzz-configs.js';

/**
 * How long a child that must end by itself (a config error: exit 2) may take before it is stopped and judged as
 * running on. It ends in ~3.5 s through tsx on an idle machine; a CI run with the chaos daemons beside it took over
 * the 6 s that checkChild gives a daemon meant to run (a failure seen once: exit 143).
 */
const EXITS_BY_ITSELF_MS = 20_000;

/**
 * Mutated configs (issue 15): every case ends in exit 2 with one message naming the file and the path, or in a
 * valid run; no stack trace. A fixed-seed sample here; `npm run fuzz-configs -- --runs 1000` is the full run.
 */
const dir = mkdtempSync(join(tmpdir(), 'config-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ENV = { BOT_API_KEY: 'fuzz-key-0123456789', BOT_API_SECRET: 'fuzz-secret-0123456789' };

describe('config fuzzer (fixed seed)', () => {
  it('300 mutated daemon, backtest and sim configs, 3 of them through bin/bot.js: no stack trace, no other exit', async () => {
    const report = await fuzzConfigs({ runs: 300, seed: 15, childEvery: 100, dir: join(dir, 'fuzz') });
    const failures = report.failures.map((f) => `case ${f.index} (${f.how}, ${f.case.kind} from ${f.case.seedFile}: ${f.case.mutations.join('; ')}): ${f.problem}`);
    expect(failures).toEqual([]);
    expect(report.refused).toBeGreaterThan(150);
    expect(report.valid).toBeGreaterThan(10);
    expect(report.children + report.childrenSkipped).toBe(3);
  }, 60_000);
});

/** The defects the fuzzer found, one case each (they failed before their fixes). */
describe('config errors found by the fuzzer name the file and the path', () => {
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const daemon = (venue: string, use = 'grid'): string =>
    [venue, `strategies: [{ id: g, use: "${use}", market: BTC_USDT, params: { lower: 29000, upper: 31000, levels: 5, amount: 0.001 } }]`].join('\n');

  it('an unreadable sim file of an embedded sim: exit 2 naming the daemon config and venue.sim.file (was ENOENT, exit 1), through bin/bot.js', async () => {
    const file = write('sim-file.yaml', daemon('venue: { kind: sim, sim: { file: no/such/sim.yaml } }'));
    const outcome = await checkChild('daemon', file, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(outcome.exit).toBe(2);
    expect(outcome.stderr).toContain(`${file}: venue.sim.file: `);
    expect(judge(outcome, file)).toBeUndefined();
  }, 30_000);

  it('a bad override of the embedded sim names the daemon config (was only "venue.sim")', async () => {
    const file = write('sim-speed.yaml', daemon('venue: { kind: sim, sim: { speed: -3 } }'));
    const outcome = await checkChild('daemon', file, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(outcome.stderr).toContain(`${file}: venue.sim: speed: `);
    expect(judge(outcome, file)).toBeUndefined();
  }, 30_000);

  it('an unknown strategy names the config file and strategies[i].use, in the daemon and in the backtest', async () => {
    const file = write('use.yaml', daemon('venue: { kind: sim }', 'no-such-strategy'));
    const outcome = await checkChild('daemon', file, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(outcome.stderr).toMatch(new RegExp(`^bot: ${file}: strategies\\[0\\]\\.use: unknown strategy 'no-such-strategy'`));
    const bt = write('use-bt.yaml', 'balances: { BTC: 1, USDT: 1000 }\nstrategies: [{ id: m, use: "./nope.ts", market: BTC_USDT }]\n');
    const btOutcome = await checkInProcess('backtest', bt, dir, ENV);
    expect(btOutcome.stderr).toMatch(new RegExp(`^bot: ${bt}: strategies\\[0\\]\\.use: strategy './nope.ts': file not found`));
  }, 30_000);

  it('a backtest strategy with bad params names the config file (was strategies.<id>.params), through bin/bot.js', async () => {
    const data = `data: [${join(import.meta.dirname, '../../backtest/sample-data/sim-btc-usdt.jsonl.gz')}]`;
    const bt = write('params-bt.yaml', `${data}\nbalances: { BTC: 1, USDT: 1000 }\nstrategies: [{ id: m, use: market-maker, market: BTC_USDT, params: { levels: -1 } }]\n`);
    const outcome = await checkChild('backtest', bt, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(outcome.exit).toBe(2);
    expect(outcome.stderr).toContain(`${bt}: strategies[0].params.levels: `);
    expect(judge(outcome, bt)).toBeUndefined();
    // and the replay's own config errors: no data, a strategy on another market than the data's
    const none = write('no-data-bt.yaml', 'balances: { BTC: 1 }\nstrategies: [{ id: m, use: market-maker, market: BTC_USDT }]\n');
    const noneOutcome = await checkChild('backtest', none, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(noneOutcome.stderr).toContain(`bot: ${none}: data: no recording given`);
    const other = write('market-bt.yaml', `${data}\nbalances: { ETH: 1 }\nstrategies: [{ id: m, use: market-maker, market: ETH_USDT }]\n`);
    const otherOutcome = await checkChild('backtest', other, dir, ENV, EXITS_BY_ITSELF_MS);
    expect(otherOutcome.stderr).toContain(`bot: ${other}: strategies[0].market: strategy 'm' trades ETH_USDT but the data is BTC_USDT`);
    expect([noneOutcome.exit, otherOutcome.exit]).toEqual([2, 2]);
  }, 90_000);
});
