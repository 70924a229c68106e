import type { Command } from 'commander';
import { formatOrders } from './format-order.js';
import { printResult } from './print-output.js';
import { parsePositiveInt, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot orders [market]`: the account's open orders. */
export function register(program: Command): void {
  venueCommand(program, 'orders', "List the account's open orders (private)")
    .argument('[market]', 'only this market')
    .option('--limit <n>', 'at most this many, <= 100 (venue default 50)', parsePositiveInt)
    .option('--offset <n>', 'skip this many', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  npx bot orders BTC_USDT --base-url http://127.0.0.1:8080')
    .action(async (market: string | undefined, opts: VenueCliOptions & { limit?: number; offset?: number }) => {
      const orders = await withClient(opts, (c) =>
        c.openOrders({
          ...(market !== undefined ? { market } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          ...(opts.offset !== undefined ? { offset: opts.offset } : {}),
        }),
      );
      printResult(orders, opts.json, () => formatOrders(orders));
    });
}
