import { InvalidArgumentError, type Command } from 'commander';
import { parseDurationArg, parseSizeArg } from '../../backtest/parse-time.js';
import { describeError } from './exit-codes.js';
import { parsePositiveInt, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';
import { onStopSignals } from '../app/stop-signal.js';

interface RecordCliOptions extends VenueCliOptions {
  readonly interval: number;
  readonly limit?: number;
  readonly level?: number;
  readonly out: string;
  readonly rotateSize?: number;
  readonly rotateTime?: number;
  readonly count?: number;
  readonly duration?: number;
  /** `--no-trades` sets it false. */
  readonly trades: boolean;
}

/** The venue's range of an order book parameter, checked when the command line is read (it refused 500 with a 422 at every poll). */
const intBetween =
  (min: number, max: number) =>
  (value: string): number => {
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got "${value}"`);
    return n;
  };

/** `bot record <market> [--interval 1s] [--limit N] [--no-trades] --out FILE`: order book and trades recorder (logic in backtest/record). */
export function register(program: Command): void {
  venueCommand(program, 'record', 'record a market’s order book snapshots and public trades (gzip JSON lines, rules record at the head) for backtests')
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .requiredOption('--out <file>', 'output file (.jsonl.gz); an existing file is resumed (a new gzip member is appended)')
    .option('--interval <duration>', 'time between snapshots (500ms, 1s, 1m)', parseDurationArg, 1000)
    .option('--limit <n>', 'levels per side, 0-100 (default and 0: the venue’s 100)', intBetween(0, 100))
    .option('--level <n>', 'price aggregation 0-5', intBetween(0, 5))
    .option('--rotate-size <size>', 'start a new numbered file after this much data (e.g. 50M)', parseSizeArg)
    .option('--rotate-time <duration>', 'start a new numbered file after this long (e.g. 1h)', parseDurationArg)
    .option('--count <n>', 'stop after n snapshots', parsePositiveInt)
    .option('--duration <duration>', 'stop after this long', parseDurationArg)
    .option('--no-trades', 'books only: do not poll the venue’s recent public trades')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot record BTC_USDT --base-url http://127.0.0.1:8080 --interval 1s --limit 20 \\\n      --out var/btc.jsonl.gz\n  npx bot record BTC_USDT --region main --rotate-time 1h --out var/btc.jsonl.gz\n      # writes var/btc.0001.jsonl.gz, var/btc.0002.jsonl.gz, ...\nStops on Ctrl-C (the file is closed cleanly).',
    )
    .action(async (market: string, opts: RecordCliOptions) => {
      const { recordBooks } = await import('../../backtest/record/recorder.js');
      const { checkWritableFile } = await import('../settings/file-paths.js');
      // appended to (or a numbered series beside it): a regular file in a folder, never a device or a directory
      const out = checkWritableFile(opts.out, { key: '--out' });
      const abort = new AbortController();
      const stopListening = onStopSignals({ onStop: () => abort.abort() });
      try {
        const result = await withClient(opts, (api) =>
          recordBooks({
            api,
            market,
            intervalMs: opts.interval,
            out,
            signal: abort.signal,
            source: opts.baseUrl ?? opts.region ?? process.env.BOT_BASE_URL ?? 'main',
            ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
            ...(opts.level !== undefined ? { level: opts.level } : {}),
            ...(opts.count !== undefined ? { count: opts.count } : {}),
            ...(opts.duration !== undefined ? { durationMs: opts.duration } : {}),
            ...(opts.rotateSize !== undefined || opts.rotateTime !== undefined
              ? {
                  rotate: {
                    ...(opts.rotateSize !== undefined ? { maxBytes: opts.rotateSize } : {}),
                    ...(opts.rotateTime !== undefined ? { maxMs: opts.rotateTime } : {}),
                  },
                }
              : {}),
            ...(opts.trades ? { publicTrades: (m: string) => api.publicTrades(m) } : {}),
            onError: (e) => process.stderr.write(`record: poll failed: ${describeError(e)}\n`),
          }),
        );
        const tradesText = opts.trades ? `, ${result.trades} trades${result.tradeGaps > 0 ? ` (${result.tradeGaps} possible gaps: poll faster)` : ''}` : '';
        const text = `recorded ${result.snapshots} snapshots${tradesText} (${result.errors} failed polls) into ${result.files.join(', ')}`;
        process.stdout.write(opts.json ? JSON.stringify(result) + '\n' : text + '\n');
      } finally {
        stopListening();
      }
    });
}
