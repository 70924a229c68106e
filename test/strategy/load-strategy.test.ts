import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadStrategy, parseParams } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('loadStrategy', () => {
  it('lists the built-ins', () => {
    expect(Object.keys(builtinStrategies)).toEqual(['market-maker', 'grid', 'stop-guard', 'twap', 'trend-mm']);
  });

  it('loads a built-in by name', async () => {
    const def = await loadStrategy(builtinStrategies, 'market-maker');
    expect(def.name).toBe('market-maker');
    expect(typeof def.create).toBe('function');
  });

  it('loads a user module by path relative to the working directory', async () => {
    const def = await loadStrategy(builtinStrategies, './fixtures/user-strategy.ts', here);
    expect(def.name).toBe('user-strategy');
  });

  it('rejects an unknown name, naming the built-ins', async () => {
    const error = await loadStrategy(builtinStrategies, 'marketmaker').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/unknown strategy 'marketmaker'.*market-maker, grid, stop-guard, twap/);
  });

  it('rejects a missing file and a path that is not a module', async () => {
    await expect(loadStrategy(builtinStrategies, './fixtures/nope.ts', here)).rejects.toThrow(/file not found/);
    await expect(loadStrategy(builtinStrategies, './fixtures/strategy.txt', here)).rejects.toThrow(/\.ts or \.js/);
  });

  it('finds built-ins in the registry it is given, not in a folder of its own', async () => {
    const registry = { mine: () => import('./fixtures/user-strategy.js') };
    expect((await loadStrategy(registry, 'mine')).name).toBe('user-strategy');
    // a registry without market-maker does not know it: nothing in src/ names the strategies/ folder
    await expect(loadStrategy(registry, 'market-maker')).rejects.toThrow(/unknown strategy 'market-maker'.*built-in \(mine\)/);
    // names are the registry's own keys, not what every object inherits
    await expect(loadStrategy(registry, 'constructor')).rejects.toThrow(/unknown strategy 'constructor'/);
  });

  it('a registry entry that fails or is not a strategy is a ConfigError naming it', async () => {
    const registry = { broken: () => Promise.reject(new Error('boom')), empty: () => import('./fixtures/not-a-strategy.js') };
    await expect(loadStrategy(registry, 'broken', here, 'c.yaml: strategies[0].use')).rejects.toThrow(
      /^c\.yaml: strategies\[0\]\.use: strategy 'broken': cannot load the built-in 'broken': boom/,
    );
    const error = await loadStrategy(registry, 'empty').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/the built-in 'empty' must default-export a strategy/);
  });

  it('rejects a module whose default export is not a strategy', async () => {
    const error = await loadStrategy(builtinStrategies, './fixtures/not-a-strategy.ts', here).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/must default-export a strategy made with defineStrategy.*keys \[hello\]/);
  });
});

describe('parseParams', () => {
  it('applies defaults, also when params are absent', async () => {
    const def = await loadStrategy(builtinStrategies, './fixtures/user-strategy.ts', here);
    expect(parseParams(def, undefined, 'cfg.yaml: strategies[0].params')).toEqual({ levels: 3, label: 'x' });
    expect(parseParams(def, { levels: 5 }, 'p')).toEqual({ levels: 5, label: 'x' });
  });

  it('names the config path of every problem', async () => {
    const def = await loadStrategy(builtinStrategies, './fixtures/user-strategy.ts', here);
    const error = (() => {
      try {
        parseParams(def, { levels: 0, label: 7 }, 'cfg.yaml: strategies[0].params');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("invalid params for strategy 'user-strategy'");
    expect(message).toContain('cfg.yaml: strategies[0].params.levels:');
    expect(message).toContain('cfg.yaml: strategies[0].params.label:');
  });

  it('validates the market maker params with their defaults', async () => {
    const def = await loadStrategy(builtinStrategies, 'market-maker');
    const p = parseParams(def, { spread: '0.004' }, 'x') as { spread: { toFixed(): string }; levels: number; postOnly: boolean };
    expect(p.spread.toFixed()).toBe('0.004');
    expect(p.levels).toBe(1);
    expect(p.postOnly).toBe(true);
    expect(() => parseParams(def, { spread: 'wide' }, 'x')).toThrow(/x\.spread: expected a decimal/);
  });
});
