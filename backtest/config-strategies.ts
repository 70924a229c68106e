import type { BacktestConfig } from './backtest-config.js';
import { loadStrategy, parseParams } from '../src/strategy/load-strategy.js';
import { resolveStrategyUse } from '../src/strategy/strategy-path.js';
import { builtinStrategies } from '../strategies/index.js';

/**
 * A backtest config's strategies checked where the file is known: each `use:` path resolved from the config file's
 * folder (src/strategy/strategy-path.ts) to the module file, so the replay and its worker threads load the same file
 * whatever their current folder, and each strategy's params validated with their line and column in the file.
 * Returns the config with those files as `use`.
 */
export async function locateConfigStrategies(config: BacktestConfig, configFile: string, warn?: (message: string) => void): Promise<BacktestConfig> {
  const strategies = [];
  for (const [i, s] of config.strategies.entries()) {
    const where = `${configFile}: strategies[${i}].use`;
    const use = resolveStrategyUse(s.use, { configFile, warn }, where);
    // loaded by the `use:` as written (its messages quote it), found silently now that any warning was given
    const definition = await loadStrategy(builtinStrategies, s.use, { configFile, warn: () => undefined }, where);
    parseParams(definition, s.params, { file: configFile, path: ['strategies', i, 'params'] });
    strategies.push({ ...s, use });
  }
  return { ...config, strategies };
}
