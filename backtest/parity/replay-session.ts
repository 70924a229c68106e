/**
 * A recorded session replayed through the backtester: the session's strategies and polling (its daemon config),
 * its starting balances (the journal's first balance record), its span (start to stop record) and its latency (half
 * the median submit-to-answer time each way, from the journal), on the session's recording, one lane per fill
 * assumption. Each lane keeps its journal, which is read back into a Session exactly as the live journal is.
 *
 * Not replayed (stated in the report when the config sets them): `executor.concurrency` above 1, `executor.bulk`
 * and `risk.account` (the backtest runs the runtime with one order in flight, single places and no account limits).
 */
import { resolve } from 'node:path';
import type { Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import type { Market } from '../../src/model/market.js';
import type { PollingOptions, RuntimeStrategy } from '../../src/engine/runtime.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { planPolling } from '../../src/streams/polling-plan.js';
import { builtinStrategies } from '../../strategies/index.js';
import type { RecordingCacheOptions } from '../data/cache-settings.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import type { FillModelParams } from '../../src/fill-model/fill-model-params.js';
import type { LatencyModel } from '../replay/backtest-venue.js';
import { runBacktest } from '../replay/run-backtest.js';
import type { SessionConfig } from './session-config.js';
import { sessionFromJournal, type Session } from './session.js';

export interface ReplayPlan {
  readonly files: readonly string[];
  readonly market: Market;
  readonly from: number;
  readonly to: number;
  readonly strategies: readonly RuntimeStrategy[];
  readonly polling: PollingOptions;
  readonly balances: Readonly<Record<string, Decimal>>;
  readonly latency: LatencyModel;
  readonly cache?: RecordingCacheOptions | undefined;
  /** What the replay leaves out of the session's config (see above). */
  readonly notReplayed: readonly string[];
}

/** Everything the replays of a session share; ConfigErrors name the config file or the journal. */
export async function planReplay(o: {
  readonly session: Session;
  readonly journalFile: string;
  readonly config: SessionConfig;
  readonly configFile: string;
  readonly files: readonly string[];
  readonly market: Market;
  readonly cache?: RecordingCacheOptions | undefined;
  readonly cwd?: string | undefined;
}): Promise<ReplayPlan> {
  const { session, config, market } = o;
  const chosen = config.strategies.flatMap((s, i) => (session.strategies.includes(s.id) && s.market === market.name ? [{ s, i }] : []));
  if (chosen.length === 0) {
    throw new ConfigError(
      `${o.configFile}: strategies: none of the session's strategies (${session.strategies.join(', ') || 'none'}) trades ${market.name}, the recording's market`,
    );
  }
  const strategies: RuntimeStrategy[] = [];
  for (const { s, i } of chosen) {
    const definition = await loadStrategy(builtinStrategies, s.use, o.cwd ?? process.cwd(), `${o.configFile}: strategies[${i}].use`);
    strategies.push({ id: s.id, definition, params: s.params, market: s.market, risk: s.risk, where: `${o.configFile}: strategies[${i}].params` });
  }
  const p = config.polling;
  const plan = planPolling({
    markets: config.strategies.map((s) => s.market),
    wishes: { bookMs: p.bookMs, balancesMs: p.balancesMs, openOrdersMs: p.openOrdersMs, dealsMs: p.dealsMs },
    reserve: p.reserve,
  });
  if (session.balances === undefined) throw new ConfigError(`${o.journalFile}: the session has no balance record, so its starting balances are not known`);
  const balances: Record<string, Decimal> = {};
  for (const asset of [market.stock, market.money]) {
    const b = session.balances[asset];
    if (b === undefined) throw new ConfigError(`${o.journalFile}: the session's first balance record has no ${asset}`);
    balances[asset] = b;
  }
  const leg = Math.round((session.roundTripMs ?? 0) / 2);
  const notReplayed: string[] = [];
  if (config.executor.concurrency > 1) notReplayed.push(`executor.concurrency ${config.executor.concurrency} (replayed with 1)`);
  if (config.executor.bulk) notReplayed.push('executor.bulk (replayed with single places)');
  if (config.risk?.account !== undefined) notReplayed.push('risk.account (account-wide limits)');
  return {
    files: o.files.map((f) => resolve(f)),
    market,
    from: session.startT,
    to: session.endT,
    strategies,
    polling: {
      ...plan.intervals,
      bookLimit: p.bookLimit,
      bookLevel: p.bookLevel,
      staleAfterMs: p.staleAfterMs,
      maxJump: p.maxJump,
      confirmPolls: p.confirmPolls,
    },
    balances,
    latency: { requestMs: leg, responseMs: leg },
    cache: o.cache,
    notReplayed,
  };
}

export interface ReplayedLane {
  readonly assumption: FillAssumption;
  readonly session: Session;
  /** Engine errors of the lane (a strategy that threw, a request that failed), at most 20. */
  readonly errors: readonly string[];
}

/** One replay of the session with the given lanes and fill model. */
export async function replaySession(plan: ReplayPlan, assumptions: readonly FillAssumption[], fillModel: FillModelParams): Promise<ReplayedLane[]> {
  const ids = plan.strategies.map((s) => s.id);
  const result = await namingTheData(plan, () =>
    runBacktest({
      files: plan.files,
      from: plan.from,
      to: plan.to,
      strategies: plan.strategies,
      balances: plan.balances,
      polling: plan.polling,
      latency: plan.latency,
      rateLimits: true,
      assumptions,
      fillModel,
      keepJournal: true,
      ...(plan.cache === undefined ? {} : { cache: plan.cache }),
    }),
  );
  return result.lanes.map((lane) => ({
    assumption: lane.assumption,
    session: sessionFromJournal(lane.journal?.records() ?? [], { strategies: ids }),
    errors: lane.errors.slice(0, 20),
  }));
}

/** The replay's own config errors (`backtest: ...`, e.g. no snapshot in the span) speak of --data and the session's span. */
async function namingTheData<T>(plan: ReplayPlan, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ConfigError && error.message.startsWith('backtest: ')) {
      const span = `${new Date(plan.from).toISOString()} → ${new Date(plan.to).toISOString()}`;
      throw new ConfigError(`--data: ${error.message.slice('backtest: '.length).replace(/ within --from\/--to$/, '')} (the session's span: ${span})`, {
        cause: error,
      });
    }
    throw error;
  }
}
