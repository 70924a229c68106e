import { InvalidArgumentError, type Command } from 'commander';
import type { ExecutedOrder, ExecutedOrderStatus } from '../model/executed-order.js';
import { formatTable, printResult } from './print-output.js';
import { parseClientId, parsePositiveInt, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

interface HistoryOptions extends VenueCliOptions {
  readonly clientId?: string;
  readonly orderId?: number;
  readonly status?: ExecutedOrderStatus;
  readonly from?: number;
  readonly to?: number;
  readonly limit?: number;
  readonly offset?: number;
}

function parseStatus(value: string): ExecutedOrderStatus {
  const v = value.toUpperCase();
  if (v !== 'ALL' && v !== 'FILLED' && v !== 'CANCELED' && v !== 'PARTIALLY_FILLED')
    throw new InvalidArgumentError(`expected all, filled, canceled or partially_filled, got "${value}"`);
  return v;
}

/** A date as Unix seconds: an ISO date/time or a number of seconds. */
function parseDate(value: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError(`expected an ISO date such as 2026-11-24T10:00:00Z or Unix seconds, got "${value}"`);
  return Math.floor(ms / 1000);
}

function formatHistory(orders: readonly ExecutedOrder[]): string {
  return formatTable(
    ['ORDER ID', 'CLIENT ID', 'MARKET', 'SIDE', 'PRICE', 'AMOUNT', 'FILLED', 'VALUE', 'FEE', 'STATUS', 'FINISHED'],
    orders.map((o) => [
      o.orderId,
      o.clientOrderId || '-',
      o.market,
      o.side,
      o.price,
      o.amount,
      o.dealStock,
      o.dealMoney,
      `${o.dealFee.toFixed()} ${o.feeAsset}`.trim(),
      o.status || '-',
      new Date(o.finishedAt * 1000).toISOString(),
    ]),
  );
}

/** `bot order-history [market]`: the account's executed orders (trade-account/order/history). */
export function register(program: Command): void {
  venueCommand(program, 'order-history', "List the account's executed orders, newest finished first (private)")
    .argument('[market]', 'only this market')
    .option('--client-id <id>', 'only the order with this client id', parseClientId)
    .option('--order-id <id>', 'only the order with this venue id', parsePositiveInt)
    .option('--status <status>', 'all, filled, canceled or partially_filled', parseStatus)
    .option('--from <date>', 'finished at or after (ISO date or Unix seconds)', parseDate)
    .option('--to <date>', 'finished at or before (ISO date or Unix seconds)', parseDate)
    .option('--limit <n>', 'at most this many, 1-500 (venue default 50)', parsePositiveInt)
    .option('--offset <n>', 'skip this many', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  npx bot order-history BTC_USDT --status filled --limit 20')
    .action(async (market: string | undefined, opts: HistoryOptions) => {
      const orders = await withClient(opts, (c) =>
        c.orderHistory({
          ...(market !== undefined ? { market } : {}),
          ...(opts.clientId !== undefined ? { clientOrderId: opts.clientId } : {}),
          ...(opts.orderId !== undefined ? { orderId: opts.orderId } : {}),
          ...(opts.status !== undefined ? { status: opts.status } : {}),
          ...(opts.from !== undefined ? { startDate: opts.from } : {}),
          ...(opts.to !== undefined ? { endDate: opts.to } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          ...(opts.offset !== undefined ? { offset: opts.offset } : {}),
        }),
      );
      printResult(orders, opts.json, () => formatHistory(orders));
    });
}
