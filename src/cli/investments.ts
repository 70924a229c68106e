import { InvalidArgumentError, type Command } from 'commander';
import { formatTable, printResult } from './print-output.js';
import { parsePositiveInt, venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

function parseStatus(value: string): 1 | 2 {
  if (value !== '1' && value !== '2') throw new InvalidArgumentError(`expected 1 (active) or 2 (closed), got "${value}"`);
  return value === '1' ? 1 : 2;
}

interface InvestmentOptions extends VenueCliOptions {
  readonly id?: string;
  readonly ticker?: string;
  readonly status?: 1 | 2;
  readonly limit?: number;
  readonly offset?: number;
}

/** `bot investments [--id] [--ticker] [--status 1|2] [--limit] [--offset]`: fixed-plan investment history. */
export function register(program: Command): void {
  venueCommand(program, 'investments', 'Fixed-plan investment history (private; business partner keys only)')
    .option('--id <id>', 'one investment')
    .option('--ticker <ticker>', "plan's source currency")
    .option('--status <status>', '1 active, 2 closed', parseStatus)
    .option('--limit <n>', '1-100 (default 100)', parsePositiveInt)
    .option('--offset <n>', '0-10000 (default 0)', parsePositiveInt)
    .addHelpText('after', '\nExample:\n  npx bot investments --status 1 --limit 10 --base-url http://127.0.0.1:8080')
    .action(async (opts: InvestmentOptions) => {
      const page = await withClient(opts, (c) =>
        c.investments({
          ...(opts.id !== undefined ? { id: opts.id } : {}),
          ...(opts.ticker !== undefined ? { ticker: opts.ticker } : {}),
          ...(opts.status !== undefined ? { status: opts.status } : {}),
          ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          ...(opts.offset !== undefined ? { offset: opts.offset } : {}),
        }),
      );
      printResult(page, opts.json, () =>
        [
          `offset ${page.offset}, limit ${page.limit}, ${page.records.length} records`,
          formatTable(
            ['ID', 'TICKER', 'STATUS', 'AMOUNT', 'INTEREST PAID', 'PLAN %', 'CREATED'],
            page.records.map((r) => [
              r.id,
              r.plan.ticker,
              r.status === 1 ? 'active' : 'closed',
              r.amount,
              r.interestPaid,
              r.plan.percent,
              new Date(r.created * 1000).toISOString(),
            ]),
          ),
        ].join('\n'),
      );
    });
}
