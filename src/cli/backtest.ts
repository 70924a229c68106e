import { Option, type Command } from 'commander';
import { parseTimeArg } from '../../backtest/parse-time.js';
import { onStopSignals } from '../app/stop-signal.js';
import { endWhenFinished } from './own-process.js';

/** `bot backtest <config.yaml> [--data FILE...] [--from T] [--to T] [--out DIR] [--cache DIR | --no-cache]` (logic in backtest/). */
export function register(program: Command): void {
  program
    .command('backtest')
    .description('replay recorded order books through the daemon’s strategies, rules, risk and executor on virtual time; writes report.json and report.html')
    .argument('<config>', 'backtest config (YAML), e.g. config/backtest.yaml')
    .option('--data <files...>', 'recording files, read in order (default: the config’s data)')
    .option('--from <time>', 'start: ISO date-time or Unix time', parseTimeArg)
    .option('--to <time>', 'end: ISO date-time or Unix time', parseTimeArg)
    .option('--out <dir>', 'report directory (default: the config’s out, var/backtest)')
    .option('--no-progress', 'no progress bar')
    .option('--cache <dir>', 'recording cache directory (default $XDG_CACHE_HOME/v4-trader or ~/.cache/v4-trader); a file read to its end is cached there')
    .option('--no-cache', 'read the recordings as text and build no cache')
    .addOption(
      new Option('--parallel', 'replay each fill assumption after the first on a worker thread (the default on 3 or more cores)').conflicts('sequential'),
    )
    .option('--sequential', 'replay the fill assumptions one after the other in this thread (the default on 1 or 2 cores)')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot backtest config/backtest.yaml\n  npx bot backtest config/backtest.yaml --data var/btc.jsonl.gz \\\n      --from 2024-08-08T23:55:00Z --out var/bt1',
    )
    .action(
      async (
        config: string,
        opts: {
          data?: string[];
          from?: number;
          to?: number;
          out?: string;
          progress: boolean;
          cache?: string | boolean;
          parallel?: boolean;
          sequential?: boolean;
        },
      ) => {
        const { runBacktestFromConfig } = await import('../../backtest/run-from-config.js');
        const { parallelLanesByDefault } = await import('../../backtest/replay/lane-threads.js');
        const { formatBacktestSummary } = await import('../../backtest/report/format-summary.js');
        // the bar's package only where a bar is drawn (a terminal): scripts and the bench run --no-progress or piped
        const cliProgress = opts.progress && process.stderr.isTTY ? (await import('cli-progress')).default : undefined;
        const bar =
          cliProgress !== undefined
            ? new cliProgress.SingleBar({ format: 'replay [{bar}] {percentage}% | {eta}s left', stream: process.stderr }, cliProgress.Presets.shades_classic)
            : undefined;
        // not on a terminal: a line per tenth, so a log (or a test) sees the replay going
        const lines = opts.progress && bar === undefined ? plainProgress() : undefined;
        const interrupt = new AbortController();
        const stopListening = onStopSignals({
          onStop: () => {
            bar?.stop();
            process.stderr.write('\nbot backtest: stopping; writing the report of what ran (partial); Ctrl-C again to quit at once\n');
            interrupt.abort();
          },
        });
        bar?.start(100, 0);
        try {
          const run = await runBacktestFromConfig({
            configFile: config,
            parallelLanes: opts.parallel === true || (opts.sequential !== true && parallelLanesByDefault()),
            signal: interrupt.signal,
            ...(opts.data ? { data: opts.data } : {}),
            ...(opts.from !== undefined ? { from: opts.from } : {}),
            ...(opts.to !== undefined ? { to: opts.to } : {}),
            ...(opts.out ? { out: opts.out } : {}),
            ...(typeof opts.cache === 'string' ? { cache: { dir: opts.cache } } : opts.cache === false ? { cache: { dir: false } } : {}),
            ...(bar
              ? { onProgress: (done: number, total: number) => bar.update(total > 0 ? Math.floor((100 * done) / total) : 0) }
              : lines
                ? { onProgress: lines }
                : {}),
          });
          bar?.stop();
          process.stdout.write(formatBacktestSummary(run.report, { json: run.jsonPath, html: run.htmlPath }) + '\n');
          // 128 + SIGINT, as a shell reports a run cut short by Ctrl-C
          if (run.report.partial) process.exitCode = 130;
        } finally {
          bar?.stop();
          stopListening();
          // a strategy module's timer or socket must not keep the finished command's process alive
          endWhenFinished('backtest');
        }
      },
    );
}

/** `replay 10%`, `replay 20%`, ... on stderr, each tenth once. */
function plainProgress(): (done: number, total: number) => void {
  let shown = 0;
  return (done, total) => {
    const tenth = total > 0 ? Math.floor((10 * done) / total) : 0;
    if (tenth <= shown || tenth >= 10) return;
    shown = tenth;
    process.stderr.write(`replay ${tenth * 10}%\n`);
  };
}
