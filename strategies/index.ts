import type { StrategyRegistry } from '../src/strategy/index.js';

/**
 * The built-in strategies, by the name a config's `use:` gives. Each module is imported only when a config uses it.
 * A new built-in is a folder here and a line below; nothing in src/ names it.
 */
export const builtinStrategies = {
  'market-maker': () => import('./market-maker/index.js'),
  grid: () => import('./grid/index.js'),
  'stop-guard': () => import('./stop-guard/index.js'),
  twap: () => import('./twap/index.js'),
  'trend-mm': () => import('./trend-mm/index.js'),
} satisfies StrategyRegistry;
