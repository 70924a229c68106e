import { Command, InvalidArgumentError } from 'commander';
import { parseDurationArg } from '../../backtest/parse-time.js';
import type { WireMarket } from '../venue/wire.js';
import { parseDecimalArg, parsePositiveInt } from './venue-options.js';

interface MarketCliOptions {
  readonly interval: number;
  readonly limit: number;
  readonly out: string;
  readonly market: string;
  readonly stock: string;
  readonly money: string;
  readonly stockPrec: number;
  readonly moneyPrec: number;
  readonly minAmount: { toFixed(): string };
  readonly minTotal: { toFixed(): string };
  readonly makerFee: { toFixed(): string };
  readonly takerFee: { toFixed(): string };
  readonly json?: boolean;
  readonly progress: boolean;
}

const limit = (v: string): number => {
  const n = parsePositiveInt(v);
  if (n < 1 || n > 100) throw new InvalidArgumentError('expected 1-100 (the order book endpoint serves at most 100 levels)');
  return n;
};

const prec = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 18) throw new InvalidArgumentError('expected an integer 0-18');
  return n;
};

/** The options every importer shares: output, grid, and the market's rules (captures carry none). */
function withMarketOptions(
  cmd: Command,
  d: { market: string; stock: string; money: string; stockPrec: number; moneyPrec: number; minAmount: string; minTotal: string },
): Command {
  return cmd
    .requiredOption('--out <file>', 'output recording (.jsonl.gz)')
    .option('--interval <duration>', 'sampling interval (plain number = ms)', parseDurationArg, 1000)
    .option('--limit <n>', 'levels per side in each snapshot, 1-100', limit, 20)
    .option('--market <name>', 'market name in the recording', d.market)
    .option('--stock <ticker>', 'base asset', d.stock)
    .option('--money <ticker>', 'quote asset', d.money)
    .option('--stock-prec <n>', 'amount decimals (lot 10^-n)', prec, d.stockPrec)
    .option('--money-prec <n>', 'price decimals (tick 10^-n); a capture price off this grid is an error', prec, d.moneyPrec)
    .option('--min-amount <decimal>', 'minimum amount', parseDecimalArg, parseDecimalArg(d.minAmount))
    .option('--min-total <decimal>', 'minimum total', parseDecimalArg, parseDecimalArg(d.minTotal))
    .option('--maker-fee <percent>', 'maker fee in percent (0.1 = 0.1 %)', parseDecimalArg, parseDecimalArg('0.1'))
    .option('--taker-fee <percent>', 'taker fee in percent', parseDecimalArg, parseDecimalArg('0.1'))
    .option('--no-progress', 'no progress bar (there is none anyway when stderr is not a terminal)')
    .option('--json', 'print the summary as JSON');
}

async function market(o: MarketCliOptions): Promise<WireMarket> {
  const { wireMarketFromOptions } = await import('../../backtest/importers/binance-depth-importer.js');
  return wireMarketFromOptions({
    name: o.market,
    stock: o.stock,
    money: o.money,
    stockPrec: o.stockPrec,
    moneyPrec: o.moneyPrec,
    minAmount: o.minAmount.toFixed(),
    minTotal: o.minTotal.toFixed(),
    makerFeePercent: o.makerFee.toFixed(),
    takerFeePercent: o.takerFee.toFixed(),
  });
}

/** Runs an import with a progress bar on a terminal's stderr, then prints its summary. */
async function run<S extends object>(
  o: MarketCliOptions,
  label: string,
  go: (onProgress?: (d: number, t: number) => void) => Promise<S>,
  line: (s: S) => string,
): Promise<void> {
  const bar = o.progress ? (await import('./import-progress.js')).importProgress(label) : { stop: () => undefined };
  let summary: S;
  try {
    summary = await go('onProgress' in bar ? bar.onProgress : undefined);
  } finally {
    bar.stop();
  }
  process.stdout.write(o.json ? JSON.stringify(summary) + '\n' : line(summary) + '\n');
}

const BTC_USDT = { market: 'BTC_USDT', stock: 'BTC', money: 'USDT', stockPrec: 5, moneyPrec: 2, minAmount: '0.00001', minTotal: '5' };

/** `bot import binance-depth|tardis|cryptofeed`: public captures into the recorder's format (logic in backtest/importers). */
export function register(program: Command): void {
  const cmd = program.command('import').description('convert public market-data captures into recordings for backtests');

  withMarketOptions(
    cmd
      .command('binance-depth')
      .description('rebuild a Binance book from its REST snapshot + depth diffs (Binance sync rule) and sample it')
      .argument('<files...>', 'capture files in time order (hftbacktest collector format: "<ns> <json>" lines, gzip)'),
    BTC_USDT,
  )
    .option('--no-trades', 'drop the capture’s trades')
    .addHelpText(
      'after',
      '\nExample:\n  npx bot import binance-depth \\\n' +
        '      ../shared/data/hftbacktest-binance-spot-btcusdt/btcusdt_20240808.gz \\\n' +
        '      ../shared/data/hftbacktest-binance-spot-btcusdt/btcusdt_20240809.gz \\\n' +
        '      --interval 1000 --limit 20 --out var/binance-btc.jsonl.gz',
    )
    .action(async (files: string[], o: MarketCliOptions & { trades: boolean }) => {
      const { importBinanceDepth } = await import('../../backtest/importers/binance-depth-importer.js');
      await run(
        o,
        'import binance-depth',
        async (onProgress) =>
          importBinanceDepth({
            files,
            intervalMs: o.interval,
            limit: o.limit,
            out: o.out,
            trades: o.trades,
            market: await market(o),
            ...(onProgress ? { onProgress } : {}),
          }),
        (s) =>
          `imported ${s.snapshots} snapshots and ${s.trades} trades (${s.diffsApplied} diffs applied, ${s.diffsDropped} dropped, ${s.gaps} gaps) into ${s.files.join(', ')}`,
      );
    });

  withMarketOptions(
    cmd
      .command('tardis')
      .description('rebuild a book from a Tardis.dev incremental_book_L2 CSV (snapshot runs reset it), time = local_timestamp, and sample it')
      .argument('<book>', 'incremental_book_L2 CSV (.csv or .csv.gz)'),
    BTC_USDT,
  )
    .option('--trades <file>', 'the trades CSV of the same symbol and period')
    .option('--symbol <name>', 'symbol to keep when the files hold several')
    .addHelpText(
      'after',
      '\nExample:\n  npx bot import tardis binance_incremental_book_L2_2024-08-08_BTCUSDT.csv.gz \\\n' +
        '      --trades binance_trades_2024-08-08_BTCUSDT.csv.gz --out var/tardis-btc.jsonl.gz',
    )
    .action(async (bookFile: string, o: MarketCliOptions & { trades?: string; symbol?: string }) => {
      const { importTardis } = await import('../../backtest/importers/tardis-importer.js');
      await run(
        o,
        'import tardis',
        async (onProgress) =>
          importTardis({
            book: bookFile,
            ...(o.trades ? { trades: o.trades } : {}),
            ...(o.symbol ? { symbol: o.symbol } : {}),
            intervalMs: o.interval,
            limit: o.limit,
            out: o.out,
            market: await market(o),
            ...(onProgress ? { onProgress } : {}),
          }),
        (s) =>
          `imported ${s.snapshots} snapshots and ${s.trades} trades of ${s.symbol ?? '?'} (${s.snapshotRuns} snapshot runs, ${s.updatesApplied} updates applied, ${s.updatesBeforeSnapshot} before the first snapshot, ${s.tradesUnknownSide} trades without a side, ${s.crossedSkipped} crossed grid times skipped) into ${s.files.join(', ')}`,
      );
    });

  withMarketOptions(
    cmd
      .command('cryptofeed')
      .description('rebuild an OKX or Kraken L2 book from a cryptofeed raw WebSocket capture (checksums verified) and sample it')
      .argument('<file>', 'capture file (cryptofeed raw-data text: "<t>: <json>" lines; .gz allowed)'),
    BTC_USDT,
  )
    .option('--symbol <name>', 'instrument in the capture (OKX instId like BTC-USDT, Kraken pair like XBT/CHF); required when it holds several')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot import cryptofeed ../shared/data/cryptofeed-okx-btcusdt/OKX.ws.1.0 --symbol BTC-USDT \\\n' +
        '      --stock-prec 8 --money-prec 1 --interval 200 --out var/okx-btc.jsonl.gz\n' +
        '  npx bot import cryptofeed ../shared/data/cryptofeed-kraken-xbtchf/KRAKEN.ws.50.0 \\\n' +
        '      --symbol XBT/CHF --market BTC_CHF --money CHF --stock-prec 8 --money-prec 1 --interval 500 \\\n' +
        '      --out var/kraken-btc-chf.jsonl.gz',
    )
    .action(async (file: string, o: MarketCliOptions & { symbol?: string }) => {
      const { importCryptofeed } = await import('../../backtest/importers/cryptofeed-importer.js');
      await run(
        o,
        'import cryptofeed',
        async (onProgress) =>
          importCryptofeed({
            file,
            ...(o.symbol ? { symbol: o.symbol } : {}),
            intervalMs: o.interval,
            limit: o.limit,
            out: o.out,
            market: await market(o),
            ...(onProgress ? { onProgress } : {}),
          }),
        (s) =>
          `imported ${s.snapshots} snapshots and ${s.trades} trades of ${s.exchange} ${s.symbol} (${s.bookMessages} book messages, ${s.checksumsVerified} checksums verified, ${s.crossedSkipped} crossed grid times skipped) into ${s.files.join(', ')}`,
      );
    });
}
