import { ConfigError } from '../model/errors.js';
import { KILL_SWITCH_MAX_SEC, KILL_SWITCH_MIN_SEC } from '../venue/wire.js';

/**
 * When the dead-man timer is reset: pure functions of the timeout and the clock, so the policy is tested on its
 * own. A reset every third of the timeout leaves room for three failed resets in a row (each retried after a
 * quarter period, and answered within that) before the venue's timer runs out; a hung daemon misses them all,
 * which is the point.
 */
export interface DeadManPlan {
  /** The venue's timer, seconds 5-600. */
  readonly timeoutSec: number;
  /** From the start of one successful reset to the next: a third of the timeout. */
  readonly periodMs: number;
  /** After a failed reset: a quarter of the period, between 250 ms and 2 s. */
  readonly retryMs: number;
}

export function planDeadMan(timeoutSec: number): DeadManPlan {
  if (!Number.isInteger(timeoutSec) || timeoutSec < KILL_SWITCH_MIN_SEC || timeoutSec > KILL_SWITCH_MAX_SEC) {
    throw new ConfigError(
      `deadMan.timeoutSec: expected whole seconds from ${KILL_SWITCH_MIN_SEC} to ${KILL_SWITCH_MAX_SEC} (the venue's range), got ${timeoutSec}`,
    );
  }
  const periodMs = Math.floor((timeoutSec * 1000) / 3);
  return { timeoutSec, periodMs, retryMs: Math.min(2000, Math.max(250, Math.floor(periodMs / 4))) };
}

/**
 * Delay before the next reset of a market. After a success, one period after that attempt STARTED (a slow answer
 * does not push the schedule back); after a failure, the retry delay, but never past the moment the venue's
 * timer would run out if it is still before that.
 */
export function nextResetDelay(plan: DeadManPlan, outcome: 'ok' | 'failed', attemptStartedAt: number, lastArmedAt: number | undefined, now: number): number {
  if (outcome === 'ok') return Math.max(0, attemptStartedAt + plan.periodMs - now);
  if (lastArmedAt === undefined) return plan.retryMs;
  const left = expiresAt(plan, lastArmedAt) - now;
  return left > 0 ? Math.min(plan.retryMs, left) : plan.retryMs;
}

/**
 * When the venue's timer runs out, counted from the START of the last successful reset: the venue set it at some
 * moment between the request's start and its answer, so this is the earliest it can be (on the daemon's clock).
 */
export function expiresAt(plan: DeadManPlan, lastArmedAt: number): number {
  return lastArmedAt + plan.timeoutSec * 1000;
}
