import type { Command } from 'commander';
import { availableParallelism } from 'node:os';
import { ConfigError } from '../model/errors.js';
import { untilStopSignal } from '../app/stop-signal.js';
import { endWhenFinished } from './own-process.js';

const positiveInt =
  (what: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new ConfigError(`${what}: expected a whole number of 1 or more, got ${JSON.stringify(v)}`);
    return Number(v);
  };

/** `bot worker --queue redis://HOST:PORT [--concurrency N] [--data DIR]`: runs sweep trials from a BullMQ queue (logic in backtest/sweep/). */
export function register(program: Command): void {
  program
    .command('worker')
    .description('run `bot sweep --queue` trials pulled from a BullMQ queue in Redis, until SIGINT/SIGTERM')
    .requiredOption('--queue <url>', 'the Redis the sweep queues on: redis://HOST:PORT')
    .option('--concurrency <n>', 'trials at once, one worker thread each (default: the number of cores)', positiveInt('--concurrency'))
    .option('--data <dir>', 'where to find the recordings by file name (else at the sweep’s paths); every file is checked against its sha256')
    .option('--lock-ms <ms>', 'job lock duration: a worker silent this long is taken for dead and its trial runs elsewhere', positiveInt('--lock-ms'), 30_000)
    .option('--stalled-check-ms <ms>', 'how often this worker looks for trials of dead workers', positiveInt('--stalled-check-ms'), 30_000)
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot worker --queue redis://127.0.0.1:6379\n  npx bot worker --queue redis://10.0.0.5:6379 --concurrency 8 --data /srv/recordings',
    )
    .action(async (opts: { queue: string; concurrency?: number; data?: string; lockMs: number; stalledCheckMs: number }) => {
      const { startQueueWorker } = await import('../../backtest/sweep/queue-worker.js');
      const concurrency = opts.concurrency ?? availableParallelism();
      const handle = startQueueWorker({
        url: opts.queue,
        concurrency,
        dataDir: opts.data,
        lockDurationMs: opts.lockMs,
        stalledIntervalMs: opts.stalledCheckMs,
        onError: (() => {
          let last = '';
          // One line per distinct problem: ioredis retries every second or so while Redis is away.
          return (e: Error) => {
            if (e.message !== last) process.stderr.write(`bot worker: redis ${opts.queue}: ${e.message} (retrying)\n`);
            last = e.message;
          };
        })(),
        onJob: (e) => process.stderr.write(`trial ${e.key.slice(0, 12)} ${e.ok ? 'done' : `failed: ${e.message}`} (${e.ms} ms)\n`),
      });
      await handle.ready;
      // listening before it says it is ready: a stop signal right after the line finds the handler
      const stopped = untilStopSignal();
      process.stdout.write(`${JSON.stringify({ worker: 'ready', queue: opts.queue, concurrency, pid: process.pid })}\n`);
      await stopped;
      await handle.close();
      // a strategy module's timer or socket (trials load them) must not keep the stopped worker's process alive
      endWhenFinished('worker');
    });
}
