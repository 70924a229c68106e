import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';
import { loadStrategy, parseParams } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { nextSteps, planScaffold, validateStrategyName, writeScaffold } from '../../src/strategy/scaffold/generate-strategy.js';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tmpDirs: string[] = [];

/** A scratch folder INSIDE the repo (so generated files resolve rxjs, zod and the SDK like a user's would). */
function scratch(): string {
  const dir = path.join(repoRoot, 'strategies', `.tmp-gen-${randomBytes(4).toString('hex')}`);
  tmpDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe('strategy names', () => {
  it('accepts kebab-case and refuses anything else with a ConfigError', () => {
    for (const ok of ['a', 'my-quoter', 'grid2', 'x-1-b']) expect(() => validateStrategyName(ok)).not.toThrow();
    for (const bad of ['', 'My', 'my_quoter', '-a', 'a-', 'a--b', '1a', 'a.b', '../evil', 'a b', 'x'.repeat(41)]) {
      expect(() => validateStrategyName(bad), bad).toThrow(ConfigError);
    }
  });
});

describe('planScaffold', () => {
  it("plans the strategy, its test, a config and a backtest config, importing this repo's SDK from where they land", () => {
    const dir = path.join(repoRoot, 'strategies', '.tmp-plan');
    const files = planScaffold({ name: 'my-quoter', dir, cwd: repoRoot });
    expect(files.map((f) => f.display)).toEqual([
      'strategies/.tmp-plan/strategies/my-quoter/index.ts',
      'strategies/.tmp-plan/test/strategies/my-quoter.test.ts',
      'strategies/.tmp-plan/config/my-quoter.yaml',
      'strategies/.tmp-plan/config/my-quoter.backtest.yaml',
    ]);
    const [strategy, test, config, backtest] = files.map((f) => f.content);
    expect(strategy).toContain("from '../../../../src/strategy/index.js'");
    expect(strategy).toContain("name: 'my-quoter'");
    expect(strategy).toContain('export const myQuoterParams');
    expect(test).toContain("from '../../../../src/strategy/testing.js'");
    expect(test).toContain("from '../../strategies/my-quoter/index.js'");
    // use: and data: are relative to the config file, as bot run and bot backtest read them
    expect(config).toContain('use: ../strategies/my-quoter/index.ts');
    expect(config).toContain('id: my-quoter');
    expect(backtest).toContain('use: ../strategies/my-quoter/index.ts');
    expect(backtest).toContain('data: [../../../backtest/sample-data/sim-btc-usdt.jsonl.gz]');
    // at the repo root the imports are the short ones a hand-written strategy uses
    const atRoot = planScaffold({ name: 'my-quoter', cwd: repoRoot });
    expect(atRoot[0]!.content).toContain("from '../../src/strategy/index.js'");
    expect(atRoot[2]!.content).toContain('use: ../strategies/my-quoter/index.ts');
    expect(atRoot[3]!.content).toContain('data: [../backtest/sample-data/sim-btc-usdt.jsonl.gz]');
    expect(nextSteps(atRoot, repoRoot).map((l) => l.replace(/\s+#.*$/, ''))).toEqual([
      'npx vitest run test/strategies/my-quoter.test.ts',
      'npx bot backtest config/my-quoter.backtest.yaml',
      'npx bot run config/my-quoter.yaml --dry-run',
      'then edit strategies/my-quoter/index.ts (desiredOrders)',
    ]);
  });

  it('refuses to overwrite: nothing is written when any target exists', () => {
    const dir = scratch();
    const files = planScaffold({ name: 'taken', dir, cwd: repoRoot });
    mkdirSync(path.dirname(files[2]!.path), { recursive: true });
    writeFileSync(files[2]!.path, 'mine\n');
    expect(() => writeScaffold(files)).toThrow(/refusing to overwrite existing file: .*config\/taken\.yaml/);
    expect(existsSync(files[0]!.path)).toBe(false);
    expect(readFileSync(files[2]!.path, 'utf8')).toBe('mine\n');
  });
});

describe('bot new-strategy', () => {
  it('writes a skeleton whose printed commands run as printed, and refuses a second run', async () => {
    const dir = scratch();
    const rel = path.relative(repoRoot, dir);
    const first = await run(process.execPath, ['bin/bot.js', 'new-strategy', 'gen-check', '--dir', rel], { cwd: repoRoot });
    expect(first.stdout).toContain(`created ${rel}/strategies/gen-check/index.ts`);
    const strategyFile = path.join(dir, 'strategies', 'gen-check', 'index.ts');
    const before = readFileSync(strategyFile, 'utf8');

    // the printed commands (comments off), by a shell in the folder bot ran in, exactly as a user pastes them
    const next = first.stdout
      .split('\n')
      .slice(first.stdout.split('\n').indexOf('next:') + 1)
      .map((l) => l.trim().replace(/\s+#.*$/, ''));
    const [testCmd, backtestCmd, runCmd] = next;
    expect(testCmd).toBe(`npx vitest run --dir ${rel} ${rel}/test/strategies/gen-check.test.ts`);
    // The generated test follows the params schema: a param renamed in the strategy needs no edit of the test. Checked
    // on a second skeleton (the generator bot new-strategy calls, in-process) in the same vitest run as the printed
    // command, the renamed test's file added to it: a second nested vitest run cost ~2 s of CPU.
    const renamed = planScaffold({ name: 'gen-renamed', dir, cwd: repoRoot });
    writeScaffold(renamed);
    const renamedSource = readFileSync(renamed[0]!.path, 'utf8');
    expect(renamedSource).toMatch(/\bsize\b/);
    writeFileSync(renamed[0]!.path, renamedSource.replace(/\bsize\b/g, 'quantity'));
    // BOT_TEST_SOURCES: the nested run's global setup skips compiling the sources for bot children
    // (test/setup/build-once.ts): the generated test starts none, and the build cost ~0.7 s of CPU in esbuild
    const env = { ...process.env, CI: '1', NO_COLOR: '1', BOT_TEST_SOURCES: '1' };
    const tested = await run('sh', ['-c', `${testCmd!} ${rel}/test/strategies/gen-renamed.test.ts`], { cwd: repoRoot, env });
    expect(tested.stdout).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(tested.stdout).toMatch(/Tests\s+6 passed \(6\)/);
    const backtest = await run('sh', ['-c', `${backtestCmd!} --no-progress --out ${rel}/bt`], { cwd: repoRoot, env });
    expect(backtest.stdout).toMatch(/^backtest BTC_USDT: .*480 snapshots/);
    expect(backtest.stdout).toMatch(/optimistic +fills [1-9]/);
    expect(runCmd).toBe(`npx bot run ${rel}/config/gen-check.yaml --dry-run`);

    // the config is a valid daemon config whose `use:` (relative to it) loads the generated strategy and whose params parse
    const configFile = path.join(dir, 'config', 'gen-check.yaml');
    const cfg = loadYamlConfig(configFile, DaemonConfigSchema, {});
    const def = await loadStrategy(builtinStrategies, cfg.strategies[0]!.use, { configFile, cwd: '/' });
    expect(def.name).toBe('gen-check');
    expect(() => parseParams(def, cfg.strategies[0]!.params, 'gen-check.yaml')).not.toThrow();

    const second = await run(process.execPath, ['bin/bot.js', 'new-strategy', 'gen-check', '--dir', rel], { cwd: repoRoot }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('refusing to overwrite');
    expect(readFileSync(strategyFile, 'utf8')).toBe(before);
  }, 120_000);

  it('exits 2 on a bad name and writes nothing', async () => {
    const dir = scratch();
    const outcome = await run(process.execPath, ['bin/bot.js', 'new-strategy', 'Bad_Name', '--dir', path.relative(repoRoot, dir)], { cwd: repoRoot }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain('kebab-case');
    expect(existsSync(dir)).toBe(false);
  });
});
