/**
 * The distributed executor: each trial is a BullMQ job whose id is the trial key, so a trial already queued or
 * finished (by this sweep or another on the same data) is not queued twice and its result is read back. Jobs
 * carry the data files' sha256; `bot worker`s pull them (queue-worker.ts). A failed job comes back as a failed
 * trial with the worker's reason; a worker that dies mid-trial loses its lock and BullMQ's stalled-job check
 * hands the job to another worker.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAME, readyWithin, redisClient } from './queue-connection.js';
import type { TrialFigures, TrialJob } from './run-trial.js';
import { TrialFailedError, unwrapOutcome, type TrialExecutor, type TrialOutcome } from './trial-executor.js';

export interface QueueExecutorOptions {
  readonly url: string;
  /** Trials kept on the queue at once (the workers' total concurrency is a good value). Default 16. */
  readonly inFlight?: number | undefined;
  readonly queueName?: string | undefined;
  /** How long to wait for Redis at the start. Default 10 s. */
  readonly connectTimeoutMs?: number | undefined;
}

export async function queueExecutor(o: QueueExecutorOptions): Promise<TrialExecutor> {
  const name = o.queueName ?? QUEUE_NAME;
  let lastError: Error | undefined;
  const onError = (e: Error): void => void (lastError = e);
  let gaveUp = false;
  const giveUp = (): boolean => gaveUp;
  const clients: Redis[] = [redisClient(o.url, { onError, giveUp }), redisClient(o.url, { onError, giveUp })];
  const queue = new Queue(name, { connection: clients[0]! });
  const events = new QueueEvents(name, { connection: clients[1]! });
  queue.on('error', onError);
  events.on('error', onError);
  try {
    await readyWithin(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), o.url, o.connectTimeoutMs ?? 10_000, () => lastError);
  } catch (e) {
    gaveUp = true;
    // BullMQ holds duplicates of the clients (blocking reads): disconnecting the queue and events ends their retries.
    // (Not awaited: with Redis away they settle only once a connection attempt ends.)
    for (const c of [queue, events]) {
      void c.close().catch(() => undefined);
      void c.disconnect().catch(() => undefined);
    }
    for (const c of clients) c.disconnect();
    throw e;
  }
  // Every trial waiting for its job adds a listener to both: as many as the trials in flight.
  const inFlight = Math.max(1, o.inFlight ?? 16);
  queue.setMaxListeners(inFlight + 10);
  events.setMaxListeners(inFlight + 10);
  let closed = false;
  const run = async (trial: TrialJob): Promise<TrialFigures> => {
    let job = await Job.fromId(queue, trial.key);
    if (job !== undefined && (await job.getState()) === 'failed') {
      // Failed before (missing data, say): this sweep asks again, so it runs again.
      await job.retry('failed');
    } else if (job === undefined) {
      job = await queue.add('trial', { trial }, { jobId: trial.key, attempts: 1, removeOnComplete: false, removeOnFail: false });
    }
    try {
      const outcome = (await job.waitUntilFinished(events)) as TrialOutcome;
      return unwrapOutcome(outcome);
    } catch (e) {
      if (closed) throw new TrialFailedError('sweep stopped', 'ERR_SWEEP_STOPPED');
      if (e instanceof TrialFailedError) throw e;
      throw new TrialFailedError(e instanceof Error ? e.message : String(e));
    }
  };
  return {
    name: `BullMQ queue ${name} at ${o.url}`,
    concurrency: inFlight,
    run,
    close: async () => {
      closed = true;
      await events.close();
      await queue.close();
      for (const c of clients) c.disconnect();
    },
  };
}
