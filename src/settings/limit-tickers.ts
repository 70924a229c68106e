import { ConfigError } from '../model/errors.js';

/** What the check needs of a market: its two assets. */
export interface MarketAssets {
  readonly name: string;
  readonly stock: string;
  readonly money: string;
}

/** What the check needs of a strategy entry (a daemon or backtest config's `strategies[i]`). */
export interface StrategyLimits {
  readonly market: string;
  readonly risk: { readonly maxInventory?: Readonly<Record<string, unknown>> | undefined };
}

/**
 * `risk.maxInventory` is keyed by ticker, and the risk check reads only the market's stock and money keys: a key
 * that is neither (`BTX` for BTC) limited nothing at all. Each such key is a ConfigError line naming the config
 * file, the key path and the market's tickers. Strategies on a market not in `markets` are left to the caller's
 * own market check.
 */
export function checkLimitTickers(strategies: readonly StrategyLimits[], markets: ReadonlyMap<string, MarketAssets>, configFile: string): void {
  const lines = limitTickerProblems(strategies, markets).map((p) => `${configFile}: ${p}`);
  if (lines.length > 0) throw new ConfigError(lines.join('\n'));
}

/** The problems `checkLimitTickers` reports, without the file (`strategies[0].risk.maxInventory.BTX: ...`). */
export function limitTickerProblems(strategies: readonly StrategyLimits[], markets: ReadonlyMap<string, MarketAssets>): string[] {
  const out: string[] = [];
  strategies.forEach((s, i) => {
    const m = markets.get(s.market);
    if (m === undefined) return;
    for (const ticker of Object.keys(s.risk.maxInventory ?? {})) {
      if (ticker !== m.stock && ticker !== m.money)
        out.push(`strategies[${i}].risk.maxInventory.${ticker}: ${m.name} has no asset ${ticker} (it has ${m.stock}, ${m.money})`);
    }
  });
  return out;
}
