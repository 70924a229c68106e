import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError } from '../model/errors.js';
import { formatOrder } from './format-order.js';
import { printResult } from './print-output.js';
import { parseClientId, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

function parseOrderId(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`an order id is a whole number, got "${value}"`);
  return Number(value);
}

/** `bot cancel <market> (<order-id> | --client-id ID)`: cancels one open order. */
export function register(program: Command): void {
  venueCommand(program, 'cancel', 'Cancel an open order by its id or by your client id (private)')
    .argument('<market>', 'market name, e.g. BTC_USDT')
    .argument('[order-id]', 'the venue order id', parseOrderId)
    .option('--client-id <id>', 'cancel by your client order id instead', parseClientId)
    .addHelpText('after', '\nExamples:\n  npx bot cancel BTC_USDT 4986126152\n  npx bot cancel BTC_USDT --client-id my-1')
    .action(async (market: string, orderId: number | undefined, opts: VenueCliOptions & { clientId?: string }) => {
      if ((orderId === undefined) === (opts.clientId === undefined)) {
        throw new ConfigError('bot cancel: give exactly one of <order-id> or --client-id');
      }
      const order = await withClient(opts, (c) =>
        c.cancel({ market, ...(orderId !== undefined ? { orderId } : {}), ...(opts.clientId !== undefined ? { clientOrderId: opts.clientId } : {}) }),
      );
      printResult(order, opts.json, () => formatOrder(order));
    });
}
