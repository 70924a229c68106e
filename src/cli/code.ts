import type { Command } from 'commander';
import type { Decimal } from '../model/decimal.js';
import { formatRecord, printResult } from './print-output.js';
import { parseDecimalArg, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/**
 * `bot code create <ticker> <amount> [--passphrase P] [--description D]`: creates a redeemable code
 * from the main balance. The code is a bearer secret: it is printed once to stdout and never logged.
 */
export function register(program: Command): void {
  const code = program.command('code').description('Redeemable codes funded from the main balance');
  venueCommand(code, 'create', 'Create a code; prints it once (it is a bearer secret: whoever has it can redeem it)')
    .argument('<ticker>', 'asset, e.g. USDT')
    .argument('<amount>', 'amount > 0 with at most 8 decimals, taken from the main balance', parseDecimalArg)
    .option('--passphrase <p>', 'required to apply the code: letters, digits, symbols, no whitespace, at most 25')
    .option('--description <d>', 'free text, at most 280 characters')
    .addHelpText('after', '\nExample:\n  npx bot code create USDT 25 --description "gift" --base-url http://127.0.0.1:8080')
    .action(async (ticker: string, amount: Decimal, opts: VenueCliOptions & { passphrase?: string; description?: string }) => {
      const created = await withClient(opts, (c) =>
        c.createCode({
          ticker,
          amount,
          ...(opts.passphrase !== undefined ? { passphrase: opts.passphrase } : {}),
          ...(opts.description !== undefined ? { description: opts.description } : {}),
        }),
      );
      printResult(created, opts.json, () =>
        formatRecord([
          ['code', created.code],
          ['external id', created.externalId],
          ['message', created.message],
        ]),
      );
    });
}
