import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadStrategy, parseParams } from '../../src/strategy/load-strategy.js';
import { resolveStrategyUse } from '../../src/strategy/strategy-path.js';
import { builtinStrategies } from '../../strategies/index.js';

/**
 * Issue 26 item 7: `use:` paths resolved from the current folder while `data:` resolved from the config file's.
 * Now both resolve from the config file's folder; a path found only from the current folder still loads, with a
 * warning that says what to write.
 */
const root = mkdtempSync(path.join(tmpdir(), 'strategy-path-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fixture = path.resolve('test/strategy/fixtures/user-strategy.ts');
// root/config/x.yaml and root/strategies/mine.ts: the layout `bot new-strategy` writes
mkdirSync(path.join(root, 'config'));
mkdirSync(path.join(root, 'strategies'));
const configFile = path.join(root, 'config', 'x.yaml');
writeFileSync(path.join(root, 'strategies', 'mine.ts'), `export { default } from ${JSON.stringify(fixture)};\n`);

describe("a config's use: path", () => {
  it("resolves from the config file's folder, whatever the current folder", async () => {
    const warnings: string[] = [];
    const base = { configFile, cwd: '/', warn: (m: string) => warnings.push(m) };
    expect(resolveStrategyUse('../strategies/mine.ts', base)).toBe(path.join(root, 'strategies', 'mine.ts'));
    expect((await loadStrategy(builtinStrategies, '../strategies/mine.ts', base)).name).toBe('user-strategy');
    expect(warnings).toEqual([]);
  });

  it('found only from the current folder (the old way): loads, with a warning naming the path to write', () => {
    const warnings: string[] = [];
    const file = resolveStrategyUse('./strategies/mine.ts', { configFile, cwd: root, warn: (m) => warnings.push(m) }, 'x.yaml: strategies[0].use');
    expect(file).toBe(path.join(root, 'strategies', 'mine.ts'));
    expect(warnings).toEqual([
      `x.yaml: strategies[0].use: './strategies/mine.ts' was found from the current folder (${root}), not from the config file's folder ` +
        `(${path.join(root, 'config')}); paths in a config are relative to its folder: write '../strategies/mine.ts'`,
    ]);
  });

  it('found nowhere: a ConfigError naming the config, the key and the folder it is relative to', async () => {
    const error = await loadStrategy(builtinStrategies, './nope.ts', { configFile, cwd: root }, 'x.yaml: strategies[0].use').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `x.yaml: strategies[0].use: strategy './nope.ts': file not found: ${path.join(root, 'config', 'nope.ts')} ` +
        `(a path in a config is relative to the config file's folder, ${path.join(root, 'config')})`,
    );
  });

  it('leaves built-in names and absolute paths alone', () => {
    const base = { configFile, warn: () => expect.fail('no warning') };
    expect(resolveStrategyUse('market-maker', base)).toBe('market-maker');
    expect(resolveStrategyUse(fixture, base)).toBe(fixture);
  });
});

describe('strategy params located in their YAML file', () => {
  it('an unknown param names the line and column of the key, and the key meant', async () => {
    const file = path.join(root, 'config', 'mm.yaml');
    writeFileSync(file, ['strategies:', '  - id: mm', '    use: market-maker', '    params:', '      spread: 0.002', '      sizee: 0.001', ''].join('\n'));
    const def = await loadStrategy(builtinStrategies, 'market-maker');
    expect(() => parseParams(def, { spread: '0.002', sizee: '0.001' }, { file, path: ['strategies', 0, 'params'] })).toThrow(
      `invalid params for strategy 'market-maker':\n  ${file}:6:7: strategies[0].params.sizee: unknown key (did you mean \`size\`?)`,
    );
  });
});
