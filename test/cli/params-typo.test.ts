import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { builtinStrategies } from '../../strategies/index.js';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 26: "a typo in any built-in strategy's params exits 2 naming the key and suggesting the right one", from
 * `bot run`, `bot check` and `bot backtest`, with the line and column of the misspelt key in the file.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'params-typo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sample = path.resolve('backtest/sample-data/sim-btc-usdt.jsonl.gz');

/** Each built-in's shipped config, and a real param of it with a near-miss spelling. */
const CASES: Record<string, { config: string; param: string; typo: string }> = {
  'market-maker': { config: 'config/default.yaml', param: 'spread', typo: 'sprad' },
  grid: { config: 'config/grid.yaml', param: 'levels', typo: 'levls' },
  'stop-guard': { config: 'config/stop-guard.yaml', param: 'trail', typo: 'trial' },
  twap: { config: 'config/twap.yaml', param: 'slices', typo: 'slics' },
  'trend-mm': { config: 'config/trend-mm.yaml', param: 'candleMs', typo: 'candelMs' },
};

/** The shipped strategy entry with `param` renamed to `typo` (in place, so the params keep their order). */
function misspelt(name: string): Record<string, unknown> {
  const c = CASES[name]!;
  const entry = (parse(readFileSync(c.config, 'utf8')) as { strategies: Record<string, unknown>[] }).strategies.find((s) => s['use'] === name)!;
  const params = entry['params'] as Record<string, unknown>;
  expect(params).toHaveProperty(c.param);
  entry['params'] = Object.fromEntries(Object.entries(params).map(([k, v]) => [k === c.param ? c.typo : k, v]));
  return entry;
}

/** `file:line:col` of the typo's key in the written YAML. */
function keyAt(file: string, typo: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((l) => new RegExp(`^\\s*${typo}:`).test(l));
  return `${file}:${line + 1}:${lines[line]!.indexOf(typo) + 1}`;
}

describe('a misspelt param of a built-in strategy', () => {
  it('covers every built-in strategy', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(builtinStrategies).sort());
  });

  it.each(Object.keys(CASES))(
    '%s: bot run, bot check and bot backtest exit 2 with file:line:col, the key and the key meant',
    async (name) => {
      const { param, typo } = CASES[name]!;
      const entry = misspelt(name);
      const run = path.join(dir, `${name}-run.yaml`);
      writeFileSync(
        run,
        stringify({
          venue: { kind: 'sim', account: 'bob' },
          strategies: [entry],
          journal: { path: path.join(dir, `${name}.jsonl`) },
          log: { level: 'silent' },
        }),
      );
      const backtest = path.join(dir, `${name}-backtest.yaml`);
      writeFileSync(backtest, stringify({ data: [sample], balances: { BTC: '10', USDT: '100000' }, strategies: [entry], out: path.join(dir, name) }));
      for (const [command, file] of [
        ['run', run],
        ['check', run],
        ['backtest', backtest],
      ] as const) {
        const r = await runBot([command, file, ...(command === 'backtest' ? ['--no-progress'] : [])]);
        expect(r.code, `${command}: ${r.stderr}`).toBe(2);
        // bot check reports on stdout, as one line of its checklist
        const said = command === 'check' ? r.stdout : r.stderr;
        expect(said).toContain(`${keyAt(file, typo)}: strategies[0].params.${typo}: unknown key (did you mean \`${param}\`?)`);
        expect(said).not.toMatch(/ZodError|\n\s+at |:;/);
      }
    },
    30_000,
  );
});
