import type { Command } from 'commander';
import { formatTable, printResult } from './print-output.js';
import { parsePositiveInt, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot book <market> [--limit N] [--level L]`: the public order book, asks above bids. */
export function register(program: Command): void {
  venueCommand(program, 'book', 'Show the order book of a market (public)')
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .option('--limit <n>', 'entries per side, 0-100 (0 = 100)', parsePositiveInt)
    .option('--level <l>', 'aggregation level 0-5 (0 = none)', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  npx bot book BTC_USDT --limit 10 --base-url http://127.0.0.1:8080')
    .action(async (market: string, opts: VenueCliOptions & { limit?: number; level?: number }) => {
      const book = await withClient(opts, (c) =>
        c.orderBook(market, { ...(opts.limit !== undefined ? { limit: opts.limit } : {}), ...(opts.level !== undefined ? { level: opts.level } : {}) }),
      );
      printResult(book, opts.json, () =>
        [
          `${book.market} at ${new Date(book.timestamp * 1000).toISOString()}`,
          formatTable(
            ['SIDE', 'PRICE', 'AMOUNT'],
            [...[...book.asks].reverse().map((l) => ['ask', l.price, l.amount] as const), ...book.bids.map((l) => ['bid', l.price, l.amount] as const)],
          ),
        ].join('\n'),
      );
    });
}
