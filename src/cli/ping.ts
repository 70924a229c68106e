import type { Command } from 'commander';
import { EXIT } from './exit-codes.js';
import { printResult } from './print-output.js';
import { venueCommand, withClient, type VenueCliOptions } from './venue-options.js';

/** `bot ping`: is the venue's API alive? Exit 3 when it answers but is not operational. */
export function register(program: Command): void {
  venueCommand(program, 'ping', 'Check that the venue API is alive (public, no credentials)')
    .addHelpText('after', '\nExample:\n  npx bot ping --base-url http://127.0.0.1:8080')
    .action(async (opts: VenueCliOptions) => {
      const alive = await withClient(opts, (c) => c.ping());
      printResult({ alive }, opts.json, () => (alive ? 'pong' : 'the venue answered but is not operational'));
      if (!alive) process.exitCode = EXIT.unavailable;
    });
}
