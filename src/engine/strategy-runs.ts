import { BehaviorSubject, Subject } from 'rxjs';
import type { Market } from '../model/market.js';
import type { Deal } from '../model/order.js';
import { ConfigError } from '../model/errors.js';
import type { OwnOrder } from '../strategy/context.js';
import { parseParams } from '../strategy/load-strategy.js';
import { ownsClientOrderId, prefixFor } from './client-order-ids.js';
import type { RuntimeStrategy } from './runtime-options.js';
import type { StrategyRun } from './strategy-run.js';

/**
 * The configured strategies as runs: each on a market the venue offers, its params validated, its client order id
 * prefix its own (two strategies giving the same prefix is a configuration error).
 */
export function strategyRuns(strategies: ReadonlyArray<RuntimeStrategy>, markets: ReadonlyMap<string, Market>): StrategyRun[] {
  const prefixes = new Map<string, string>();
  return strategies.map((s) => {
    const market = markets.get(s.market);
    if (!market) throw new ConfigError(`strategy '${s.id}': market ${s.market} is not offered by the venue`);
    const prefix = prefixFor(s.id);
    const clash = prefixes.get(prefix);
    if (clash)
      throw new ConfigError(
        `strategies '${clash}' and '${s.id}' give the same client order id prefix '${prefix}'; make their ids differ in the first 12 characters`,
      );
    prefixes.set(prefix, s.id);
    return {
      id: s.id,
      definition: s.definition,
      params: parseParams(s.definition, s.params, s.where ?? `strategies.${s.id}.params`),
      market,
      risk: s.risk ?? {},
      prefix,
      owns: ownsClientOrderId(prefix),
      orders$: new BehaviorSubject<readonly OwnOrder[]>([]),
      fills$: new Subject<Deal>(),
      halted: false,
      paused: false,
      recentOrderTimes: [],
      subscription: undefined,
    };
  });
}
