import type { Command } from 'commander';
import type { Decimal } from '../model/decimal.js';
import type { StpMode } from '../model/order.js';
import { formatOrder } from './format-order.js';
import { printResult } from './print-output.js';
import { parseClientId, parseDecimalArg, parseSide, parseStp, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

interface OrderOptions extends VenueCliOptions {
  readonly postOnly?: boolean;
  readonly ioc?: boolean;
  readonly rpi?: boolean;
  readonly stp?: StpMode;
  readonly clientId?: string;
}

/** `bot order <market> <buy|sell> <amount> <price> [flags]`: places one limit order. */
export function register(program: Command): void {
  venueCommand(program, 'order', 'Place a limit order (private)')
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .argument('<side>', 'buy or sell', parseSide)
    .argument('<amount>', 'amount in the stock (base) asset', parseDecimalArg)
    .argument('<price>', 'price in the money (quote) asset', parseDecimalArg)
    .option('--post-only', 'reject instead of taking liquidity')
    .option('--ioc', 'immediate or cancel: fill what is possible now, cancel the rest')
    .option('--rpi', 'retail price improvement: post-only, hidden from the public book')
    .option('--stp <mode>', 'self-trade prevention: no, cancel_both, cancel_new, cancel_old (or cb, cn, co)', parseStp)
    .option('--client-id <id>', 'your order id (letters, digits, dashes); lets an unknown outcome be reconciled', parseClientId)
    .addHelpText('after', '\nExample:\n  npx bot order BTC_USDT buy 0.01 30000 --post-only --client-id my-1 \\\n      --base-url http://127.0.0.1:8080')
    .action(async (market: string, side: 'buy' | 'sell', amount: Decimal, price: Decimal, opts: OrderOptions) => {
      const order = await withClient(opts, (c) =>
        c.placeLimit({
          market,
          side,
          amount,
          price,
          ...(opts.clientId !== undefined ? { clientOrderId: opts.clientId } : {}),
          ...(opts.postOnly ? { postOnly: true } : {}),
          ...(opts.ioc ? { ioc: true } : {}),
          ...(opts.rpi ? { rpi: true } : {}),
          ...(opts.stp !== undefined ? { stp: opts.stp } : {}),
        }),
      );
      printResult(order, opts.json, () => formatOrder(order));
    });
}
