import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../model/errors.js';
import type { BulkPlaceResult } from '../venue/bulk-records.js';
import type { PlaceLimitRequest } from '../venue/trading-api.js';
import { EXIT } from './exit-codes.js';
import { formatTable, printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

function formatResults(requests: readonly PlaceLimitRequest[], results: readonly BulkPlaceResult[]): string {
  return formatTable(
    ['#', 'STATUS', 'CLIENT ID', 'ORDER ID', 'CODE', 'DETAIL'],
    results.map((r, i) => {
      const id = requests[i]?.clientOrderId ?? '-';
      if (r.status === 'placed') return [i + 1, 'placed', id, r.order.orderId, '-', `left ${r.order.left.toFixed()}`];
      if (r.status === 'rejected') {
        const details = Object.entries(r.error.errors)
          .map(([k, v]) => `${k}: ${v.join('; ')}`)
          .join(', ');
        return [i + 1, 'rejected', id, '-', r.error.venueCode ?? '-', details || r.error.message];
      }
      return [i + 1, 'unknown', id, '-', '-', r.reason];
    }),
  );
}

/** `bot bulk <orders.json>`: up to 20 limit orders in one request (order/bulk), one result line per order. */
export function register(program: Command): void {
  venueCommand(program, 'bulk', 'Place up to 20 limit orders in one request; prints one result per order (private)')
    .argument('<file>', 'JSON array of orders {market, side, amount, price, clientOrderId?, postOnly?, ioc?, rpi?, stp?}; - reads stdin')
    .option('--stop-on-fail', 'stop at the first order that fails: the ones after it are not placed')
    .addHelpText(
      'after',
      '\nExit code 1 when any order was refused, 3 when an outcome is unknown\n(look them up with `npx bot orders` or `npx bot order-history --client-id ID`).' +
        '\n\nExample:\n  echo \'[{"market":"BTC_USDT","side":"buy","amount":"0.01","price":"29000"}]\' | npx bot bulk -',
    )
    .action(async (file: string, opts: VenueCliOptions & { stopOnFail?: boolean }) => {
      const { readBulkOrders } = await import('./bulk-orders.js');
      const text = file === '-' ? readFileSync(0, 'utf8') : readText(file);
      const requests = readBulkOrders(file === '-' ? 'stdin' : file, text);
      const results = await withClient(opts, (c) => c.placeLimitBulk(requests, opts.stopOnFail === true ? { stopOnFail: true } : {}));
      const plain = results.map((r) =>
        r.status === 'placed'
          ? r
          : r.status === 'rejected'
            ? { status: r.status, code: r.error.venueCode, message: r.error.message, errors: r.error.errors }
            : r,
      );
      printResult(plain, opts.json, () => formatResults(requests, results));
      if (results.some((r) => r.status === 'unknown')) process.exitCode = EXIT.unavailable;
      else if (results.some((r) => r.status === 'rejected')) process.exitCode = EXIT.rejected;
    });
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
