import { ConfigError } from '../model/errors.js';

/**
 * Client order ids: `<prefix>-<run>-<seq>`, e.g. `mm-lz3k9q1c-1f`.
 * - letters, digits and dashes only (the venue's rule 3 in its strictest reading);
 * - `prefix` is per strategy, so the engine can tell which strategy owns an order it finds on the account;
 * - `run` is the start time of the process in base 36 (ms), bumped past the last run recorded in the
 *   journal, so ids stay unique per account across restarts even if the clock stepped back;
 * - `seq` is a base-36 counter within the run.
 * `run` and `seq` contain no dash, so prefix `mm` never claims `mm-2`'s orders.
 */
export class ClientOrderIds {
  readonly run: number;
  private seq = 0;
  /** `run` in base 36, made once: a radix conversion of a ms timestamp is not free and every order needs it. */
  private readonly runText: string;

  constructor(startMs: number, lastRun?: number) {
    this.run = lastRun !== undefined && lastRun >= startMs ? lastRun + 1 : startMs;
    this.runText = this.run.toString(36);
  }

  next(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${this.runText}-${this.seq.toString(36)}`;
  }
}

const PREFIX_PATTERN = /^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/;
/** Long enough to be readable, short enough that prefix + run + seq stays well under common id limits (~32). */
export const MAX_PREFIX_LENGTH = 12;

/** Derives a strategy's prefix from its instance id (validated: letters, digits, single dashes). */
export function prefixFor(strategyId: string): string {
  const cleaned = strategyId
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  const prefix = cleaned.slice(0, MAX_PREFIX_LENGTH).replace(/-$/, '');
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new ConfigError(`strategy id ${JSON.stringify(strategyId)} gives no usable client order id prefix (letters, digits, dashes)`);
  }
  return prefix;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A matcher for the ids a prefix generated (and only those). */
export function ownsClientOrderId(prefix: string): (clientOrderId: string) => boolean {
  const re = new RegExp(`^${escapeRegExp(prefix)}-[0-9a-z]+-[0-9a-z]+$`);
  return (id) => re.test(id);
}

/** The run part of an id this module generated, or undefined. */
export function runOf(clientOrderId: string): number | undefined {
  const m = /-([0-9a-z]+)-[0-9a-z]+$/.exec(clientOrderId);
  if (!m?.[1]) return undefined;
  const n = parseInt(m[1], 36);
  return Number.isFinite(n) ? n : undefined;
}
