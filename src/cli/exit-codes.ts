import { BotError, ConfigError } from '../model/errors.js';
import { VenueError } from '../venue/errors.js';
import { EMERGENCY_EXIT_CODE, EmergencyStopError } from '../app/emergency.js';

/**
 * CLI exit codes: 0 ok, 1 rejected by the venue, 2 usage or config error, 3 network or venue unavailable, 4 the daemon
 * ended in an emergency stop (a failure, not a request: its orders were cancelled, see app/emergency.ts).
 */
export const EXIT = { ok: 0, rejected: 1, usage: 2, unavailable: 3, emergency: EMERGENCY_EXIT_CODE } as const;

export function exitCodeFor(error: unknown): number {
  if (error instanceof EmergencyStopError) return EXIT.emergency;
  if (error instanceof ConfigError) return EXIT.usage;
  if (error instanceof VenueError) return error.rejected ? EXIT.rejected : EXIT.unavailable;
  // A sweep's Redis queue that cannot be reached is a network problem like an unreachable venue.
  if (error instanceof BotError && error.code === 'ERR_QUEUE_UNAVAILABLE') return EXIT.unavailable;
  // A journal damaged mid-file is the operator's to look at (or `bot journal repair`), like a config error; so is an
  // input file that is not the recording or capture it was given as (bad gzip, a line that does not decode).
  if (error instanceof BotError && (error.code === 'ERR_JOURNAL_CORRUPT' || error.code === 'ERR_RECORDING_FORMAT' || error.code === 'ERR_CAPTURE_FORMAT'))
    return EXIT.usage;
  return EXIT.rejected;
}

/** One line for a person: message, code, and the venue's errors map; no stack trace, never a secret. */
export function describeError(error: unknown): string {
  if (error instanceof VenueError) {
    const parts = [error.message, `[${error.code}]`];
    if (error.status !== undefined) parts.push(`HTTP ${error.status}`);
    if (error.venueCode !== undefined) parts.push(`venue code ${error.venueCode}`);
    const details = Object.entries(error.errors).map(([k, v]) => `${k}: ${v.join('; ')}`);
    if (details.length > 0) parts.push(`(${details.join(', ')})`);
    return parts.join(' ');
  }
  if (error instanceof BotError) return `${error.message} [${error.code}]`;
  if (error instanceof Error) return error.message;
  return String(error);
}
