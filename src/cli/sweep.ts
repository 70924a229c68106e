import type { Command } from 'commander';
import { resolve } from 'node:path';
import { ConfigError } from '../model/errors.js';
import type { TrialExecutor } from '../../backtest/sweep/trial-executor.js';
import { onStopSignals } from '../app/stop-signal.js';
import { endWhenFinished } from './own-process.js';

const positiveInt =
  (what: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new ConfigError(`${what}: expected a whole number of 1 or more, got ${JSON.stringify(v)}`);
    return Number(v);
  };

/** Where the trials run: a BullMQ queue (BullMQ and ioredis loaded) or a local worker pool (piscina), only the one used. */
async function executorFor(opts: { workers?: number; queue?: string }): Promise<TrialExecutor> {
  if (opts.queue !== undefined) {
    const { queueExecutor } = await import('../../backtest/sweep/queue-executor.js');
    return queueExecutor({ url: opts.queue, inFlight: opts.workers });
  }
  const { trialPool } = await import('../../backtest/sweep/trial-pool.js');
  return trialPool({ workers: opts.workers });
}

/** `bot sweep <sweep.yaml> [--workers N] [--queue redis://HOST:PORT] [--out DIR] [--resume] [--json]` (logic in backtest/sweep/). */
export function register(program: Command): void {
  program
    .command('sweep')
    .description(
      'parameter sweep over a backtest config (grid, random or TPE; walk-forward folds) on a local worker pool or a BullMQ queue; writes trials.jsonl, sweep.json and sweep.html',
    )
    .argument('<sweep>', 'sweep file (YAML), e.g. config/sweep.yaml')
    .option('--workers <n>', 'worker threads (default: the number of cores); with --queue, trials kept on the queue at once', positiveInt('--workers'))
    .option('--queue <url>', 'run the trials on a BullMQ queue in Redis (redis://HOST:PORT) for `bot worker`s to pull')
    .option('--out <dir>', 'output directory (default: the sweep file’s out, var/sweep)')
    .option('--resume', 'continue the sweep in --out: finished trials are kept, not run again')
    .option('--json', 'one JSON line per finished trial on stdout (no progress bar)')
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot sweep config/sweep.yaml\n  npx bot sweep config/sweep.yaml --workers 4 --out var/sweep2 --resume\n  npx bot sweep config/sweep.yaml --queue redis://127.0.0.1:6379\n      # with `npx bot worker --queue redis://127.0.0.1:6379` running beside it',
    )
    .action(async (file: string, opts: { workers?: number; queue?: string; out?: string; resume?: boolean; json?: boolean; progress: boolean }) => {
      const { loadSweepPlan } = await import('../../backtest/sweep/sweep-config.js');
      const { runSweep } = await import('../../backtest/sweep/run-sweep.js');
      const { writeSweepFiles } = await import('../../backtest/sweep/write-sweep.js');
      const { formatSweepSummary, trialLine } = await import('../../backtest/sweep/sweep-summary.js');
      const { default: cliProgress } = await import('cli-progress');
      const plan = loadSweepPlan(file);
      const outDir = resolve(opts.out ?? plan.config.out);
      const executor = await executorFor(opts);
      const stop = new AbortController();
      const stopListening = onStopSignals({
        onStop: () => {
          process.stderr.write('\nbot sweep: stopping (finished trials are kept in trials.jsonl; --resume continues); Ctrl-C again to force\n');
          stop.abort();
        },
      });
      const bar =
        !opts.json && opts.progress && process.stderr.isTTY
          ? new cliProgress.SingleBar(
              { format: 'sweep [{bar}] {value}/{total} trials | best {best} | ETA {eta_formatted}', stream: process.stderr, etaBuffer: 20 },
              cliProgress.Presets.shades_classic,
            )
          : undefined;
      try {
        bar?.start(1, 0, { best: '–' });
        const outcome = await runSweep({
          plan,
          executor,
          outDir,
          resume: opts.resume === true,
          signal: stop.signal,
          onTrial: (rec, p) => {
            if (opts.json) process.stdout.write(trialLine(rec, p) + '\n');
            bar?.setTotal(p.total);
            bar?.update(p.done, { best: p.best === undefined ? '–' : String(p.best) });
          },
        });
        bar?.stop();
        const files = writeSweepFiles(outcome, outDir);
        if (!opts.json) process.stdout.write(formatSweepSummary(files.report, files) + '\n');
        if (outcome.interrupted) process.exitCode = 130;
      } finally {
        bar?.stop();
        stopListening();
        await executor.close();
        // once the executor is closed (its threads or queue connections): a strategy module's timer or socket must not
        // keep the finished command's process alive
        endWhenFinished('sweep');
      }
    });
}
