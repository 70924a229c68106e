import { Command, InvalidArgumentError, Option } from 'commander';
import { D, parseDecimal, type Decimal } from '../model/decimal.js';
import { toStpMode, type StpMode } from '../model/order.js';
import type { RestClient } from '../venue/rest-client.js';
import type { Dialect, Region } from '../venue/wire.js';

/** Options every venue command shares. */
export interface VenueCliOptions {
  readonly baseUrl?: string;
  readonly region?: Region;
  readonly dialect: Dialect;
  readonly json?: boolean;
  readonly timeout: number;
}

/**
 * A venue command with the shared options: where the venue is (--base-url, or --region, or the
 * BOT_BASE_URL environment variable, else the main address), the dialect, --json and a timeout.
 * Credentials come only from BOT_API_KEY / BOT_API_SECRET, never from the command line (shell history).
 */
export function venueCommand(program: Command, name: string, description: string, o: { requestTimeoutFlag?: '--timeout' | '--request-timeout' } = {}): Command {
  // a command whose own --timeout means something else (kill-switch) names the request timeout --request-timeout
  const timeoutFlag = o.requestTimeoutFlag ?? '--timeout';
  return program
    .command(name)
    .description(description)
    .addOption(new Option('--base-url <url>', 'venue base URL, e.g. the simulated exchange http://127.0.0.1:8080 (env BOT_BASE_URL)').conflicts('region'))
    .addOption(new Option('--region <region>', 'live venue address').choices(['main', 'eu']))
    .addOption(new Option('--dialect <dialect>', 'field spelling to send').choices(['contract', 'exchange']).default('contract'))
    .option('--json', 'print the parsed response as JSON (decimals as strings) instead of a table')
    .option(`${timeoutFlag} <ms>`, 'request timeout in milliseconds', parsePositiveInt, 10_000)
    .addHelpText('after', '\nCredentials (private endpoints): environment variables BOT_API_KEY and BOT_API_SECRET.');
}

/**
 * Runs `fn` with a client built from the options and the environment, and closes it. The client (and got with it)
 * is loaded here, not at the top: registering a venue command needs only the options above.
 */
export async function withClient<T>(opts: VenueCliOptions, fn: (client: RestClient) => Promise<T>): Promise<T> {
  const { RestClient } = await import('../venue/rest-client.js');
  const baseUrl = opts.baseUrl ?? (opts.region === undefined ? process.env.BOT_BASE_URL : undefined);
  const client = new RestClient({
    ...(baseUrl !== undefined && baseUrl !== '' ? { baseUrl } : { region: opts.region ?? 'main' }),
    dialect: opts.dialect,
    timeoutMs: opts.timeout,
    ...(process.env.BOT_API_KEY ? { apiKey: process.env.BOT_API_KEY } : {}),
    ...(process.env.BOT_API_SECRET ? { apiSecret: process.env.BOT_API_SECRET } : {}),
    // one-shot commands: give up after one retry rather than back off for a minute
    retry: { limit: 1 },
  });
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

export function parseDecimalArg(value: string): Decimal {
  const d = parseDecimal(value);
  if (d === undefined) throw new InvalidArgumentError(`expected a decimal number such as 0.01, got "${value}"`);
  return D(d);
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return Number(value);
}

export function parseSide(value: string): 'buy' | 'sell' {
  if (value !== 'buy' && value !== 'sell') throw new InvalidArgumentError(`expected buy or sell, got "${value}"`);
  return value;
}

export function parseStp(value: string): StpMode {
  const mode = toStpMode(value);
  if (mode === undefined) throw new InvalidArgumentError(`expected one of no, cancel_both, cancel_new, cancel_old, cb, cn, co, got "${value}"`);
  return mode;
}

export function parseClientId(value: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(value)) throw new InvalidArgumentError(`a client order id holds latin letters, digits and dashes, got "${value}"`);
  return value;
}
