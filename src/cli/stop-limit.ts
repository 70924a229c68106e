import type { Command } from 'commander';
import type { Decimal } from '../model/decimal.js';
import type { StpMode } from '../model/order.js';
import { formatOrder } from './format-order.js';
import { printResult } from './print-output.js';
import { parseClientId, parseDecimalArg, parseSide, parseStp, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot stop-limit <market> <buy|sell> <amount> <price> <activation-price>`: places one stop-limit order. */
export function register(program: Command): void {
  venueCommand(program, 'stop-limit', 'Place a stop-limit order: rests as a limit order once the last price reaches the activation price (private)')
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .argument('<side>', 'buy or sell', parseSide)
    .argument('<amount>', 'amount in the stock (base) asset', parseDecimalArg)
    .argument('<price>', 'limit price once activated', parseDecimalArg)
    .argument('<activation-price>', 'a buy activates at or above it, a sell at or below it', parseDecimalArg)
    .option('--client-id <id>', 'your order id (letters, digits, dashes)', parseClientId)
    .option('--stp <mode>', 'self-trade prevention: no, cancel_both, cancel_new, cancel_old (or cb, cn, co)', parseStp)
    .addHelpText('after', '\nExample:\n  npx bot stop-limit BTC_USDT sell 0.01 28900 29000 --client-id guard-1 \\\n      --base-url http://127.0.0.1:8080')
    .action(
      async (
        market: string,
        side: 'buy' | 'sell',
        amount: Decimal,
        price: Decimal,
        activationPrice: Decimal,
        opts: VenueCliOptions & { clientId?: string; stp?: StpMode },
      ) => {
        const order = await withClient(opts, (c) =>
          c.placeStopLimit({
            market,
            side,
            amount,
            price,
            activationPrice,
            ...(opts.clientId !== undefined ? { clientOrderId: opts.clientId } : {}),
            ...(opts.stp !== undefined ? { stp: opts.stp } : {}),
          }),
        );
        printResult(order, opts.json, () => formatOrder(order));
      },
    );
}
