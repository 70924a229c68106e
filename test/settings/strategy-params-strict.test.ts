import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/model/errors.js';
import { loadStrategy, parseParams } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';

/** A near-miss typo of a real param of each built-in strategy, and the key it should be taken for. */
const TYPOS: Record<string, [typo: string, meant: string]> = {
  'market-maker': ['sprad', 'spread'],
  grid: ['levls', 'levels'],
  'stop-guard': ['trial', 'trail'],
  twap: ['slics', 'slices'],
  'trend-mm': ['trendGian', 'trendGain'],
};

describe('built-in strategy params are strict (issue 24: `sprad:` was ignored by the market maker)', () => {
  it('covers every built-in strategy', () => {
    expect(Object.keys(TYPOS).sort()).toEqual(Object.keys(builtinStrategies).sort());
  });

  it.each(Object.entries(TYPOS))('%s: a misspelt param is a ConfigError naming the file, the key and the key meant', async (name, [typo, meant]) => {
    const def = await loadStrategy(builtinStrategies, name);
    let error: unknown;
    try {
      parseParams(def, { [typo]: 1 }, 'cfg.yaml: strategies[0].params');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`cfg.yaml: strategies[0].params.${typo}: unknown key (did you mean \`${meant}\`?)`);
  });
});
