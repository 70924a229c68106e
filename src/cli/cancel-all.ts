import type { Command } from 'commander';
import { printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot cancel-all <market>`: cancels every open order of the account in one market (order/cancel/all). */
export function register(program: Command): void {
  venueCommand(program, 'cancel-all', "Cancel all of the account's open orders in a market, stop orders too, in one request (private)")
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .addHelpText(
      'after',
      '\nIt takes EVERY order of the account in that market, also ones placed by other programs.\n\nExample:\n  npx bot cancel-all BTC_USDT',
    )
    .action(async (market: string, opts: VenueCliOptions) => {
      await withClient(opts, (c) => c.cancelAll(market));
      printResult({ market, cancelled: true }, opts.json, () => `cancelled every open order of ${market}`);
    });
}
