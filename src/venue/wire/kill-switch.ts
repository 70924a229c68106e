import type { AuthFields } from './common.js';

/**
 * The exchange's dead-man timer ("kill-switch"): api-v4.md names the endpoint group only; the shapes below are
 * what the exchange's public docs say (docs.whitebit.com, spot trading: "Sync kill-switch timer" and "Status
 * kill-switch timer") and what the client and the sim rely on:
 *
 * - `POST /api/v4/order/kill-switch` `{market, timeout, types?}` sets, resets or deletes the timer of one market.
 *   `timeout` is a string of seconds `"5"`-`"600"` (a number is accepted too), or `null` to delete the timer.
 *   `types` narrows the orders it cancels (`spot`, `margin`, `futures`); absent or null = every type. When the
 *   timer runs out, the exchange cancels the account's orders of those types in that market, and the timer is gone.
 *   Answer: `{market, startTime, cancellationTime, types}` (Unix seconds; cancellationTime = startTime + timeout).
 *   The docs show no answer for a deletion: the sim answers `[]`, and the client reads any non-timer JSON as "cleared".
 *   Errors (HTTP 422): code 30 "Validation failed" (`errors.market: ["Market field is required."]`,
 *   `errors.timeout: ["Timeout field is required."]`, `["Timeout should be at least 5."]`), code 31 for an unknown
 *   market (`errors.market: ["Market is not available."]`). Rate limit: 10000 requests / 10 s.
 * - `POST /api/v4/order/kill-switch/status` `{market?}`: the account's running timers, of that market or of all,
 *   as an array of the same objects (empty when none). Code 31 for an unknown market. Rate limit: 100 / 10 s.
 *
 * The docs spell these fields in camelCase only; the sim answers them so in both dialects (as the deals), and the
 * client also reads `start_time` / `cancellation_time`.
 */

export const KILL_SWITCH_MIN_SEC = 5;
export const KILL_SWITCH_MAX_SEC = 600;

export const KILL_SWITCH_ORDER_TYPES = ['spot', 'margin', 'futures'] as const;
export type KillSwitchOrderType = (typeof KILL_SWITCH_ORDER_TYPES)[number];

export interface KillSwitchBody extends AuthFields {
  market: string;
  /** Seconds 5-600 as a string, or null to delete the timer. */
  timeout: string | null;
  /** Absent or null: every order type. */
  types?: KillSwitchOrderType[] | null;
}

/** A running timer (times in Unix seconds). */
export interface KillSwitchTimer {
  market: string;
  startTime: number;
  cancellationTime: number;
  types: KillSwitchOrderType[];
}

/** The timer after setting; after a deletion the docs show no body (the sim answers `[]`). */
export type KillSwitchResponse = KillSwitchTimer | [];

export interface KillSwitchStatusBody extends AuthFields {
  market?: string;
}

export type KillSwitchStatusResponse = KillSwitchTimer[];
