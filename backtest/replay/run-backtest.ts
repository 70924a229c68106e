/**
 * The replay engine: reads the recording once and drives every lane (one per fill assumption) on one
 * virtual clock. The loop:
 *   1. the next thing to happen is either the next recorded event (a snapshot or a trade, at its
 *      receive time) or the scheduler's next due action (a poll, a latency leg, a strategy timer);
 *      at equal times the data comes first (a snapshot received at T is visible to a poll at T);
 *   2. data is applied to every lane's virtual exchange (fills happen here); due actions run;
 *   3. promises settle (settle.ts: the microtask queue is drained, without an event-loop turn, so every chain the
 *      actions started runs to completion before time moves again; skipped after a step of only synchronous work
 *      such as requests arriving at the venue), then repeat.
 * At the end of the data the runtimes are stopped (open orders cancelled) with the clock still driven,
 * so the stop's own requests pay their latency and rate limits too.
 */
import type { Logger } from 'pino';
import type { Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import type { PollingOptions, RuntimeStrategy } from '../../src/engine/runtime.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import type { RecordingCacheOptions } from '../data/cache-settings.js';
import { FILL_ASSUMPTIONS, type FillAssumption } from '../../src/fill-model/fill-model.js';
import type { FillModelParams } from '../../src/fill-model/fill-model-params.js';
import type { LatencyModel } from './backtest-venue.js';
import { DataFeed, type FeedEvent } from './data-feed.js';
import { RecentTrades } from './recent-trades.js';
import { Lane } from './lane.js';
import type { ReplayOutcome } from './lane-view.js';
import { SteppingScheduler } from './stepping-scheduler.js';
import { checkingSettler, drainingSettler, type StepSettler } from './settle.js';
import type { ReplayStop } from './replay-stop.js';

/** Settled steps between two event-loop turns of a stoppable replay (the turn lets a SIGINT handler run). */
const STEPS_PER_TURN = 1024;

export interface BacktestOptions {
  readonly files: readonly string[];
  /** The recording cache (a directory, or `dir: false` for none). Default: backtest/data/cache-settings.ts. */
  readonly cache?: RecordingCacheOptions;
  readonly from?: number;
  readonly to?: number;
  readonly strategies: readonly RuntimeStrategy[];
  readonly balances: Readonly<Record<string, Decimal>>;
  readonly polling: PollingOptions;
  readonly latency?: LatencyModel;
  readonly rateLimits?: boolean;
  /** Default both, optimistic first. */
  readonly assumptions?: readonly FillAssumption[];
  /** The optimistic lane's parameters (fill-model-params.ts). Default: the model's defaults. */
  readonly fillModel?: FillModelParams | undefined;
  /** Equity curve sampling period, ms of virtual time. Default 1000. */
  readonly sampleMs?: number;
  readonly logger?: Logger;
  /**
   * Keep each lane's journal records in memory (`Lane.journal`, which the fingerprint hashes). Default true. A run
   * that only needs its report (bot backtest, a sweep trial) passes false: the records are dropped instead of held for
   * the whole run (a day's ~100k records, which the collector would otherwise copy and promote as they pile up), and
   * the runtime skips making those of its hot paths (Journal.discards); it decides exactly the same.
   */
  readonly keepJournal?: boolean;
  /**
   * Stops the replay part-way (Ctrl-C): the lanes stop at the step they reached (replay-stop.ts: every participant at
   * the same virtual time), are shut down as at the end of the data, and the result says `partial`. The replay then
   * also turns the event loop now and then, so a signal handler can run.
   */
  readonly stop?: ReplayStop;
  /** Called now and then with (bytes read, total bytes). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Tests: after every drain, check with a real event-loop turn that no chain was left running (settle.ts; slow).
   * Throws UnsettledChainError if one was.
   */
  readonly checkSettled?: boolean;
  /** Tests: the drain itself (default drainMicrotasks), to show that the check catches a drain that falls short. */
  readonly drain?: () => Promise<void>;
}

/** The replay's outcome with its lanes as they ran here (every Lane's internals: journal, runtime, venue). */
export interface BacktestResult extends ReplayOutcome {
  readonly lanes: readonly Lane[];
}

export async function runBacktest(o: BacktestOptions): Promise<BacktestResult> {
  const settler = o.checkSettled === true ? checkingSettler(o.drain) : drainingSettler(o.drain);
  try {
    return await replay(o, settler);
  } finally {
    (settler as { stop?: () => void }).stop?.();
  }
}

async function replay(o: BacktestOptions, settler: StepSettler): Promise<BacktestResult> {
  const feed = new DataFeed({
    files: o.files,
    ...(o.cache === undefined ? {} : { cache: o.cache }),
    ...(o.from === undefined ? {} : { from: o.from }),
    ...(o.to === undefined ? {} : { to: o.to }),
  });
  let ev = await feed.next();
  while (ev !== undefined && ev.kind !== 'book') ev = await feed.next();
  if (ev === undefined || feed.market === undefined)
    throw new ConfigError(
      `backtest: no order book snapshot in ${o.files.join(', ')}${o.from !== undefined || o.to !== undefined ? ' within --from/--to' : ''}`,
    );
  const head = feed.market;
  const market = parseMarket(head.market);
  for (const [i, s] of o.strategies.entries()) {
    if (s.market !== market.name)
      throw new ConfigError(`backtest: strategies[${i}].market: strategy '${s.id}' trades ${s.market} but the data is ${market.name}`);
  }
  const scheduler = new SteppingScheduler(ev.t);
  const settle = (): Promise<void> => settler.settle(scheduler.now());
  const settleThen = (then: () => void, fail: (error: unknown) => void): void => {
    if (settler.settleThen !== undefined) settler.settleThen(scheduler.now(), then);
    else settle().then(then, fail);
  };
  const sampleMs = o.sampleMs ?? 1000;
  // one list for every lane: the venues only read it
  const recentTrades = head.trades === true ? new RecentTrades(market.name) : undefined;
  const lanes = (o.assumptions ?? FILL_ASSUMPTIONS).map(
    (assumption) =>
      new Lane({
        assumption,
        fillModel: o.fillModel,
        market,
        scheduler,
        balances: o.balances,
        hasTrades: head.trades === true,
        strategies: o.strategies,
        polling: o.polling,
        ...(o.latency ? { latency: o.latency } : {}),
        ...(o.rateLimits === undefined ? {} : { rateLimits: o.rateLimits }),
        ...(o.logger ? { logger: o.logger } : {}),
        ...(o.keepJournal === undefined ? {} : { keepJournal: o.keepJournal }),
        trades: recentTrades,
      }),
  );
  let snapshots = 0;
  let trades = 0;
  const apply = (e: FeedEvent): void => {
    scheduler.advanceTo(e.t);
    if (e.kind === 'book') {
      snapshots += 1;
      for (const l of lanes) l.exchange.onSnapshot(e.snapshot);
    } else {
      trades += 1;
      recentTrades?.add(e.t, e.trade, e.price);
      for (const l of lanes) l.exchange.onTrade(e.trade, e.price);
    }
  };
  const startT = ev.t;
  apply(ev);
  let nextSample = startT;
  const sample = (t: number): void => {
    if (t < nextSample) return;
    for (const l of lanes) l.sample(t);
    nextSample = t + sampleMs;
  };
  sample(startT);

  // Start every runtime; their first requests need the clock driven, so do not await yet.
  // a failure held as { error } (a caught value may be anything, undefined included)
  const starting: { failure?: { readonly error: unknown } } = {};
  let started = 0;
  settler.begin();
  for (const l of lanes) {
    l.runtime.start().then(
      () => (started += 1),
      (error: unknown) => (starting.failure ??= { error }),
    );
  }

  // Let the starts run until they wait on the virtual clock (their first requests are then scheduled).
  await settle();
  const first = feed.nextBuffered();
  ev = first === null ? await feed.next() : first;
  let progressAt = 0;
  // a stop's virtual time: data and timers after it are not replayed
  let limit: number | undefined;
  let steps = 0;
  // The loop is resumed by callbacks, not awaits: a step that needs its promises settled hands the rest of the loop
  // to the settler (settleThen, settle.ts), without the promises of an awaited drain and of the async function's
  // continuation. Only a new chunk of the file is awaited. The order of the work is the same as the awaiting loop's.
  await new Promise<void>((resolve, reject) => {
    const resume = (): void => {
      try {
        loop();
      } catch (error) {
        reject(error);
      }
    };
    // read once, not on every step
    const stop = o.stop;
    const onProgress = o.onProgress;
    const loop = (): void => {
      for (;;) {
        rethrow(starting);
        if (stop !== undefined && limit === undefined && stop.requested()) limit = stop.arrive(scheduler.now());
        const due = scheduler.nextDue();
        const cut = limit !== undefined && ev !== undefined && ev.t > limit;
        if (ev !== undefined && !cut && (due === undefined || ev.t <= due)) {
          apply(ev);
          if (ev.kind === 'book') {
            sample(ev.t);
            if (onProgress !== undefined && snapshots - progressAt >= 500) {
              progressAt = snapshots;
              onProgress(feed.bytesRead, feed.totalBytes);
            }
          }
          // Decoded events come without a promise; only a new chunk of the file is awaited.
          const buffered = feed.nextBuffered();
          if (buffered !== null) {
            ev = buffered;
            continue;
          }
          feed.next().then((e) => {
            ev = e;
            resume();
          }, reject);
          return;
        }
        if (ev === undefined || (cut && (due === undefined || due > limit!))) {
          resolve();
          return;
        }
        settler.begin();
        scheduler.runNext();
        // A step of request arrivals only (the venue acting, synchronously), or of timers that only started requests the
        // venue vouched for (stepping-scheduler.ts), leaves no promise to settle.
        if (scheduler.settleNeeded) {
          // every chain has settled, so a turn of the event loop changes nothing in the replay
          if (stop !== undefined && ++steps % STEPS_PER_TURN === 0) {
            settle().then(() => setImmediate(resume), reject);
            return;
          }
          settleThen(resume, reject);
          return;
        }
        if (settler.checkQuiet !== undefined) {
          settler.checkQuiet(scheduler.now()).then(resume, reject);
          return;
        }
        settler.skip();
      }
    };
    resume();
  });
  const partial = ev !== undefined;
  if (partial) scheduler.advanceTo(limit!);
  else if (limit === undefined) o.stop?.finish(scheduler.now());
  rethrow(starting);
  if (started < lanes.length) throw new ConfigError('backtest: the data ended before the engine finished starting');
  const endT = scheduler.now();
  sample(endT + sampleMs);

  // Stop with the clock still running (cancels travel through latency and rate limits), at most a minute.
  let stopped = 0;
  const stopping: { failure?: { readonly error: unknown } } = {};
  settler.begin();
  for (const l of lanes) {
    l.runtime.stop({ cancelOpenOrders: true }).then(
      (s) => {
        l.summary = s;
        stopped += 1;
      },
      (error: unknown) => (stopping.failure ??= { error }),
    );
  }
  await settle();
  const deadline = scheduler.now() + 60_000;
  for (;;) {
    if (stopped === lanes.length || stopping.failure !== undefined) break;
    settler.begin();
    if (!scheduler.runNext(deadline)) break;
    await settle();
  }
  rethrow(stopping);
  if (!partial) o.onProgress?.(feed.totalBytes, feed.totalBytes);
  return { market, source: head.source, startT, endT, snapshots, trades, lanes, sampleMs, ...(partial ? { partial } : {}) };
}

/** Throws what a lane's start or stop failed with, if it did (held as { error }: a caught value may be anything). */
function rethrow(held: { readonly failure?: { readonly error: unknown } }): void {
  if (held.failure !== undefined) throw held.failure.error;
}
