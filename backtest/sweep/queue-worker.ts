/**
 * `bot worker`: pulls trials from the BullMQ queue and runs them on a local pool of worker threads (one trial
 * per thread; `concurrency` threads). The main thread only talks to Redis, so job locks are renewed on time
 * while a backtest runs. Data is checked by sha256 before a trial runs (data-files.ts); a job whose data is
 * missing or different fails at once with the file and hash in its reason, and is not retried.
 */
import { workerEntry } from '../../src/loading/compiled-build.js';
import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, readyWithin, redisClient } from './queue-connection.js';
import type { TrialJob } from './run-trial.js';
import type { TrialOutcome } from './trial-executor.js';
import { Piscina } from 'piscina';

export interface QueueWorkerOptions {
  readonly url: string;
  readonly concurrency?: number | undefined;
  readonly dataDir?: string | undefined;
  readonly queueName?: string | undefined;
  /** BullMQ lock duration (ms): a worker silent this long is considered dead. Default 30 000. */
  readonly lockDurationMs?: number | undefined;
  /** How often the stalled-job check runs (ms). Default 30 000. */
  readonly stalledIntervalMs?: number | undefined;
  /** Called when a job finishes or fails (for the worker's log). */
  readonly onJob?: (e: { key: string; ok: boolean; message?: string; ms: number }) => void;
  /** Redis connection problems (the worker keeps reconnecting once it was ready). */
  readonly onError?: (e: Error) => void;
  /**
   * How long to wait for Redis at the start (ms), as `bot sweep --queue` does (queue-executor.ts). Default 10 s;
   * then `ready` rejects with QueueUnavailableError (the CLI's exit 3) and the worker is closed.
   */
  readonly connectTimeoutMs?: number | undefined;
}

export interface QueueWorkerHandle {
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

export function startQueueWorker(o: QueueWorkerOptions): QueueWorkerHandle {
  const concurrency = Math.max(1, o.concurrency ?? 1);
  const pool = new Piscina({
    filename: workerEntry(import.meta.url, './pool-worker.mjs').href,
    minThreads: concurrency,
    maxThreads: concurrency,
    concurrentTasksPerWorker: 1,
    idleTimeout: 60_000,
    resourceLimits: { maxYoungGenerationSizeMb: 128 },
  });
  let lastError: Error | undefined;
  let gaveUp = false;
  const onError = (e: Error): void => {
    lastError = e;
    o.onError?.(e);
  };
  const client: Redis = redisClient(o.url, { onError, giveUp: () => gaveUp });
  const worker = new Worker(
    o.queueName ?? QUEUE_NAME,
    async (job) => {
      const t0 = Date.now();
      const trial = (job.data as { trial: TrialJob }).trial;
      const outcome = (await pool.run({ job: trial, options: { dataDir: o.dataDir } })) as TrialOutcome;
      o.onJob?.({ key: trial.key, ok: outcome.ok, ...(outcome.ok ? {} : { message: outcome.message }), ms: Date.now() - t0 });
      // A failed trial fails its job with the reason (data mismatch, bad params): the same job would fail again.
      if (!outcome.ok) throw new UnrecoverableError(outcome.message);
      return outcome;
    },
    {
      connection: client,
      concurrency,
      lockDuration: o.lockDurationMs ?? 30_000,
      stalledInterval: o.stalledIntervalMs ?? 30_000,
      maxStalledCount: 3,
    },
  );
  worker.on('error', onError);
  const close = async (): Promise<void> => {
    await worker.close(true);
    await pool.destroy();
    client.disconnect();
  };
  // Bounded like the sweep's own wait: ioredis reconnects for ever, so an unreachable Redis left `bot worker` retrying for good.
  const ready = readyWithin(worker.waitUntilReady(), o.url, o.connectTimeoutMs ?? 10_000, () => lastError).catch(async (error: unknown) => {
    gaveUp = true;
    client.disconnect();
    // with Redis away the worker's close settles only once a connection attempt ends: not awaited
    void worker.close(true).catch(() => undefined);
    await pool.destroy();
    throw error;
  });
  return { ready, close };
}
