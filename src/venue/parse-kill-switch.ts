import { z } from 'zod';
import type { KillSwitchState } from './account-records.js';
import { parseShape, withAliases, zIntLike } from './parse-shape.js';
import { KILL_SWITCH_ORDER_TYPES, PATHS } from './wire.js';

/**
 * The kill-switch answers (shapes in wire/kill-switch.ts) into KillSwitchState. Times are Unix seconds (a
 * number or a digit string); the docs' camelCase and a snake_case spelling are both read; `types` absent
 * means every type, as the request's.
 */
const timerSchema = z.preprocess(
  withAliases({ startTime: 'start_time', cancellationTime: 'cancellation_time' }),
  z.object({
    market: z.string().min(1),
    start_time: zIntLike,
    cancellation_time: zIntLike,
    types: z.array(z.enum(KILL_SWITCH_ORDER_TYPES)).nullish(),
  }),
);

function toState(w: z.output<typeof timerSchema>): KillSwitchState {
  return { market: w.market, startTime: w.start_time, cancellationTime: w.cancellation_time, types: w.types ?? [...KILL_SWITCH_ORDER_TYPES] };
}

/**
 * The answer of order/kill-switch: the timer after setting it; null for a deletion, which the docs show no body
 * for (the sim answers `[]`; an empty object, `null` or `true` also mean "done"). An object that names a market
 * must be a whole timer, else MalformedResponseError.
 */
export function parseKillSwitch(raw: unknown, endpoint: string = PATHS.killSwitch): KillSwitchState | null {
  const isObject = raw !== null && typeof raw === 'object' && !Array.isArray(raw);
  if (isObject && Object.keys(raw).length > 0) return toState(parseShape(timerSchema, raw, endpoint, 'kill-switch timer'));
  parseShape(z.union([z.array(z.unknown()).max(0), z.object({}), z.null(), z.undefined(), z.literal(true)]), raw, endpoint, 'kill-switch answer');
  return null;
}

/** The answer of order/kill-switch/status: the running timers (an empty array when none). */
export function parseKillSwitchStatus(raw: unknown, endpoint: string = PATHS.killSwitchStatus): KillSwitchState[] {
  return parseShape(z.array(timerSchema), raw, endpoint, 'kill-switch status').map(toState);
}
