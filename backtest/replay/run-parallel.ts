/**
 * The lanes of a backtest on the machine's cores: the first fill assumption replays in this thread, each other one
 * in a worker thread of its own, every one the same runBacktest over the same data (one replay path; the daemon's
 * runtime in each). Lanes never interact (each has its own virtual exchange, venue and runtime on its own virtual
 * clock), so a lane run alone decides exactly what it decides beside the others: the per-lane digests, and so the
 * fingerprint, equal a sequential run's (test/backtest/parallel-lanes.test.ts).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BotError, ConfigError } from '../../src/model/errors.js';
import type { RiskLimits } from '../../src/engine/risk-limits.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { workerEntry } from '../../src/loading/compiled-build.js';
import { FILL_ASSUMPTIONS, type FillAssumption } from '../../src/fill-model/fill-model.js';
import type { ReplayOutcome } from './lane-view.js';
import { encodeDecimals, laneFromWire, type LaneWire } from './lane-wire.js';
import { runBacktest, type BacktestOptions } from './run-backtest.js';

/** A strategy as a worker can load it again: by name or path, not by its (unclonable) definition. */
export interface StrategySource {
  readonly id: string;
  /** Built-in name or a module path, resolved against `cwd`. */
  readonly use: string;
  readonly cwd: string;
  readonly params: unknown;
  readonly market: string;
  readonly risk?: RiskLimits;
  /** Where the params came from (errors), as RuntimeStrategy's `where`. */
  readonly where?: string;
  /** Where `use` came from (errors of a strategy that cannot be loaded), e.g. `config/x.yaml: strategies[0].use`. */
  readonly loadWhere?: string;
}

export type ParallelBacktestOptions = Omit<BacktestOptions, 'strategies' | 'checkSettled' | 'drain' | 'keepJournal'> & {
  readonly sources: readonly StrategySource[];
  /** Have each worker hash its lane, so `replayFingerprint` works on the result (~0.2 s per lane-day). Default false. */
  readonly fingerprint?: boolean;
};

/** What a lane's worker is given (structured-clone safe). */
export interface LaneTask {
  readonly assumption: FillAssumption;
  readonly digest?: boolean;
  readonly sources: readonly (Omit<StrategySource, 'risk'> & { readonly risk?: unknown })[];
  readonly balances: unknown;
  readonly options: Omit<BacktestOptions, 'strategies' | 'balances' | 'assumptions' | 'logger' | 'onProgress' | 'checkSettled' | 'drain' | 'stop'>;
  /** The run's ReplayStop (replay-stop.ts), shared with this thread. */
  readonly stopBuffer?: SharedArrayBuffer;
}

export type LaneTaskAnswer =
  | { readonly ok: true; readonly lane: LaneWire; readonly facts: { startT: number; endT: number; snapshots: number; trades: number; partial?: boolean } }
  | { readonly ok: false; readonly error: { readonly message: string; readonly code?: string | undefined; readonly name?: string | undefined } };

export class LaneWorkerError extends BotError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'ERR_LANE_WORKER', cause });
  }
}

export async function runBacktestParallel(o: ParallelBacktestOptions): Promise<ReplayOutcome> {
  const assumptions = o.assumptions ?? FILL_ASSUMPTIONS;
  const [first, ...others] = assumptions;
  if (first === undefined) throw new ConfigError('backtest: no fill assumption to run');
  // the workers boot (load the code, read the data) while this thread replays the first lane
  const { logger: _logger, onProgress: _progress, sources, balances, assumptions: _a, fingerprint, stop, ...plain } = o;
  const task = (assumption: FillAssumption): LaneTask => ({
    assumption,
    digest: fingerprint === true,
    ...(stop !== undefined ? { stopBuffer: stop.buffer } : {}),
    sources: sources.map((s) => ({ ...s, ...(s.risk !== undefined ? { risk: encodeDecimals(s.risk) } : {}) })),
    balances: encodeDecimals(balances),
    options: { ...plain, keepJournal: fingerprint === true },
  });
  const workers = others.map((a) => runLaneWorker(task(a)));
  // a worker that fails while this thread still replays is reported once this lane is done, not left unhandled
  for (const w of workers) w.catch(() => undefined);
  const strategies = [];
  for (const s of sources) {
    const { use: _use, cwd: _cwd, loadWhere: _lw, ...runtime } = s;
    strategies.push({ ...runtime, definition: await loadStrategy(builtinStrategies, s.use, s.cwd, s.loadWhere) });
  }
  // the journal is kept only for the fingerprint (a ReplayOutcome's lanes do not show it)
  const here = await runBacktest({ ...o, strategies, assumptions: [first], keepJournal: fingerprint === true });
  const answers = await Promise.all(workers);
  for (const a of answers) {
    const f = a.facts;
    if (f.startT !== here.startT || f.endT !== here.endT || f.snapshots !== here.snapshots || f.trades !== here.trades) {
      throw new LaneWorkerError(
        `backtest: a lane's worker read other data (${JSON.stringify(f)} against ${here.startT}..${here.endT}, ${here.snapshots} snapshots, ${here.trades} trades)`,
      );
    }
  }
  // a stopped run: every lane stopped at the same time (replay-stop.ts), checked above; partial if any lane had data left
  const partial = here.partial === true || answers.some((a) => a.facts.partial === true);
  return { ...here, lanes: [here.lanes[0]!, ...answers.map((a) => laneFromWire(a.lane))], ...(partial ? { partial } : {}) };
}

/**
 * Lane workers kept between runs in this process, warm: a sweep or a bench replays many times, and a new worker pays
 * its thread, its module loading and a cold JIT on every lane. Idle ones are unref'd, so they never hold the process
 * open; one that fails is dropped, never reused.
 */
const idleWorkers: Worker[] = [];
const MAX_IDLE_WORKERS = Math.max(1, availableParallelism() - 1);

/** How many lane workers wait warm in this process (tests). */
export function idleLaneWorkers(): number {
  return idleWorkers.length;
}

function takeWorker(): Worker {
  const idle = idleWorkers.pop();
  if (idle !== undefined) {
    idle.ref();
    return idle;
  }
  const worker = new Worker(workerEntry(import.meta.url, './lane-worker.mjs'), { resourceLimits: { maxYoungGenerationSizeMb: 128 } });
  // an idle worker that dies leaves the pool
  worker.on('exit', () => {
    const i = idleWorkers.indexOf(worker);
    if (i >= 0) idleWorkers.splice(i, 1);
  });
  return worker;
}

function giveBack(worker: Worker): void {
  if (idleWorkers.length >= MAX_IDLE_WORKERS) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idleWorkers.push(worker);
}

function runLaneWorker(task: LaneTask): Promise<Extract<LaneTaskAnswer, { ok: true }>> {
  return new Promise((resolve, reject) => {
    const worker = takeWorker();
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (answer: LaneTaskAnswer): void => {
      done();
      if (answer.ok) {
        giveBack(worker);
        resolve(answer);
        return;
      }
      void worker.terminate();
      const { message, code } = answer.error;
      // the replay's config errors keep their type (the CLI exits 2 on them, naming the config)
      reject(code === 'ERR_CONFIG' ? new ConfigError(message) : new LaneWorkerError(`backtest lane ${task.assumption}: ${message}`));
    };
    const onError = (error: Error): void => {
      done();
      reject(new LaneWorkerError(`backtest lane ${task.assumption}: the worker failed: ${error.message}`, error));
    };
    const onExit = (code: number): void => {
      done();
      reject(new LaneWorkerError(`backtest lane ${task.assumption}: the worker exited (${code}) without an answer`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(task);
  });
}
