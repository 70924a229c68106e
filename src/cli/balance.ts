import type { Command } from 'commander';
import { formatTable, printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot balance`: the main balance and the trade balance side by side. */
export function register(program: Command): void {
  venueCommand(program, 'balance', 'Show the main and the trade (spot) balance (private)')
    .addHelpText('after', '\nExample:\n  BOT_API_KEY=... BOT_API_SECRET=... npx bot balance --base-url http://127.0.0.1:8080')
    .action(async (opts: VenueCliOptions) => {
      const [main, trade] = await withClient(opts, (c) => Promise.all([c.mainBalance(), c.tradeBalance()]));
      const tickers = [...new Set([...Object.keys(main), ...Object.keys(trade)])].sort();
      printResult({ main, trade }, opts.json, () =>
        formatTable(
          ['TICKER', 'MAIN', 'TRADE AVAILABLE', 'TRADE FROZEN'],
          tickers.map((t) => [t, main[t] ?? null, trade[t]?.available ?? null, trade[t]?.freeze ?? null]),
        ),
      );
    });
}
