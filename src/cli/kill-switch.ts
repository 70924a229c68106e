import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError } from '../model/errors.js';
import type { KillSwitchState } from '../venue/account-records.js';
import { KILL_SWITCH_MAX_SEC, KILL_SWITCH_MIN_SEC } from '../venue/wire.js';
import { formatTable, printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

interface KillSwitchOptions extends Omit<VenueCliOptions, 'timeout'> {
  /** The timer's seconds (the request timeout is --request-timeout here). */
  readonly timeout?: number;
  readonly requestTimeout: number;
  readonly clear?: boolean;
  readonly status?: boolean;
}

function parseTimeout(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= KILL_SWITCH_MIN_SEC && n <= KILL_SWITCH_MAX_SEC)) {
    throw new InvalidArgumentError(`expected whole seconds from ${KILL_SWITCH_MIN_SEC} to ${KILL_SWITCH_MAX_SEC}, got "${value}"`);
  }
  return n;
}

const iso = (sec: number): string => new Date(sec * 1000).toISOString();

function formatTimers(timers: readonly KillSwitchState[]): string {
  return formatTable(
    ['MARKET', 'SET AT', 'CANCELS AT', 'TIMEOUT', 'TYPES'],
    timers.map((t) => [t.market, iso(t.startTime), iso(t.cancellationTime), `${t.cancellationTime - t.startTime}s`, t.types.join(',')]),
  );
}

/** `bot kill-switch [market] --timeout N | --clear | --status`: the venue's dead-man timer of a market. */
export function register(program: Command): void {
  venueCommand(program, 'kill-switch', "Set, clear or show the market's dead-man timer: when it runs out, the venue cancels your orders there (private)", {
    requestTimeoutFlag: '--request-timeout',
  })
    .argument('[market]', 'market name, e.g. BTC_USDT (optional with --status: every market)')
    .option('--timeout <seconds>', `set or reset the timer: ${KILL_SWITCH_MIN_SEC}-${KILL_SWITCH_MAX_SEC} seconds from now`, parseTimeout)
    .option('--clear', 'delete the timer')
    .option('--status', 'show the running timers')
    .addHelpText(
      'after',
      '\nA program that resets the timer well before it runs out keeps its orders; if it dies, the venue\ncancels them.\n' +
        'Examples:\n  npx bot kill-switch BTC_USDT --timeout 60\n  npx bot kill-switch BTC_USDT --status\n  npx bot kill-switch BTC_USDT --clear',
    )
    .action(async (market: string | undefined, opts: KillSwitchOptions) => {
      const chosen = [opts.timeout !== undefined, opts.clear === true, opts.status === true].filter(Boolean).length;
      if (chosen !== 1) throw new ConfigError('bot kill-switch: give exactly one of --timeout N, --clear or --status');
      const venue: VenueCliOptions = { ...opts, timeout: opts.requestTimeout };
      if (opts.status === true) {
        const timers = await withClient(venue, (c) => c.killSwitchStatus(market));
        printResult(timers, opts.json, () => formatTimers(timers));
        return;
      }
      if (market === undefined) throw new ConfigError('bot kill-switch: give the market (e.g. BTC_USDT) with --timeout or --clear');
      const timer = await withClient(venue, (c) => c.killSwitch(market, opts.timeout ?? null));
      if (timer === null) printResult({ market, cleared: true }, opts.json, () => `kill-switch timer of ${market} cleared`);
      else printResult(timer, opts.json, () => formatTimers([timer]));
    });
}
