/**
 * Strategies known by name (a config's `use: market-maker`), each a lazy import of its module: naming the registry
 * loads no strategy, so `bot --help` and a daemon of one strategy load only what they use. The built-in one is
 * `strategies/index.ts`; the composition roots (src/app, backtest's runners) pass it to `loadStrategy`, so the SDK
 * never reaches into `strategies/` (dependency-cruiser checks that).
 */
export type StrategyRegistry = Readonly<Record<string, () => Promise<unknown>>>;
