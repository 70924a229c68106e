import { Command, InvalidArgumentError } from 'commander';
import { importBinanceDepth, wireMarketFromOptions } from '../../backtest/importers/binance-depth-importer.js';
import { parseDurationArg } from '../../backtest/parse-time.js';
import { parseDecimalArg, parsePositiveInt } from './venue-options.js';

interface BinanceCliOptions {
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
  readonly trades: boolean;
  readonly json?: boolean;
}

const limit = (v: string): number => {
  const n = parsePositiveInt(v);
  if (n < 1 || n > 100) throw new InvalidArgumentError('expected 1-100 (the order book endpoint serves at most 100 levels)');
  return n;
};

/** `bot import binance-depth <files...>`: public captures into the recorder's format (logic in backtest/importers). */
export function register(program: Command): void {
  const cmd = program.command('import').description('convert public market-data captures into recordings for backtests');
  cmd
    .command('binance-depth')
    .description('rebuild a Binance book from its REST snapshot + depth diffs (Binance sync rule) and sample it')
    .argument('<files...>', 'capture files in time order (hftbacktest collector format: "<ns> <json>" lines, gzip)')
    .requiredOption('--out <file>', 'output recording (.jsonl.gz)')
    .option('--interval <duration>', 'sampling interval (plain number = ms)', parseDurationArg, 1000)
    .option('--limit <n>', 'levels per side in each snapshot, 1-100', limit, 20)
    .option('--market <name>', 'market name in the recording', 'BTC_USDT')
    .option('--stock <ticker>', 'base asset', 'BTC')
    .option('--money <ticker>', 'quote asset', 'USDT')
    .option('--stock-prec <n>', 'amount decimals (lot 10^-n)', (v) => Number(v), 5)
    .option('--money-prec <n>', 'price decimals (tick 10^-n)', (v) => Number(v), 2)
    .option('--min-amount <decimal>', 'minimum amount', parseDecimalArg, parseDecimalArg('0.00001'))
    .option('--min-total <decimal>', 'minimum total', parseDecimalArg, parseDecimalArg('5'))
    .option('--maker-fee <percent>', 'maker fee in percent (0.1 = 0.1 %)', parseDecimalArg, parseDecimalArg('0.1'))
    .option('--taker-fee <percent>', 'taker fee in percent', parseDecimalArg, parseDecimalArg('0.1'))
    .option('--no-trades', 'drop the capture’s trades')
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nExample:\n  bot import binance-depth ../shared/data/hftbacktest-binance-spot-btcusdt/btcusdt_20240808.gz ../shared/data/hftbacktest-binance-spot-btcusdt/btcusdt_20240809.gz --interval 1000 --limit 20 --out var/binance-btc.jsonl.gz')
    .action(async (files: string[], o: BinanceCliOptions) => {
      const summary = await importBinanceDepth({
        files,
        intervalMs: o.interval,
        limit: o.limit,
        out: o.out,
        trades: o.trades,
        market: wireMarketFromOptions({
          name: o.market, stock: o.stock, money: o.money, stockPrec: o.stockPrec, moneyPrec: o.moneyPrec,
          minAmount: o.minAmount.toFixed(), minTotal: o.minTotal.toFixed(), makerFeePercent: o.makerFee.toFixed(), takerFeePercent: o.takerFee.toFixed(),
        }),
      });
      process.stdout.write(
        o.json
          ? JSON.stringify(summary) + '\n'
          : `imported ${summary.snapshots} snapshots and ${summary.trades} trades (${summary.diffsApplied} diffs applied, ${summary.diffsDropped} dropped, ${summary.gaps} gaps) into ${summary.files.join(', ')}\n`,
      );
    });
}
