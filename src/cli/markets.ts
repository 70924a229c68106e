import type { Command } from 'commander';
import { D } from '../model/decimal.js';
import { formatTable, printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

const HUNDRED = D(100);

/** `bot markets`: the markets and their trading rules (fees shown in percent, as the venue publishes them). */
export function register(program: Command): void {
  venueCommand(program, 'markets', 'List markets with their steps, minimums and fees (public)')
    .addHelpText('after', '\nExample:\n  npx bot markets --base-url http://127.0.0.1:8080 --json')
    .action(async (opts: VenueCliOptions) => {
      const markets = await withClient(opts, (c) => c.markets());
      printResult(markets, opts.json, () =>
        formatTable(
          ['MARKET', 'STOCK', 'MONEY', 'AMOUNT DP', 'PRICE DP', 'MIN AMOUNT', 'MIN TOTAL', 'MAX TOTAL', 'MAKER %', 'TAKER %', 'TRADING'],
          markets.map((m) => [
            m.name,
            m.stock,
            m.money,
            m.stockPrec,
            m.moneyPrec,
            m.minAmount,
            m.minTotal,
            m.maxTotal ?? 'none',
            m.makerFee.times(HUNDRED),
            m.takerFee.times(HUNDRED),
            m.tradesEnabled ? 'yes' : 'no',
          ]),
        ),
      );
    });
}
