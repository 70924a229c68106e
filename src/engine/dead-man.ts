import type { Logger } from 'pino';
import type { SchedulerLike, Subscription } from 'rxjs';
import { BotError } from '../model/errors.js';
import type { KillSwitchState } from '../venue/account-records.js';
import { expiresAt, nextResetDelay, planDeadMan, type DeadManPlan } from './dead-man-policy.js';
import type { Journal } from './journal.js';

/** The one venue call the dead-man needs (RestClient has it; wire/kill-switch.ts says what it does). */
export interface KillSwitchApi {
  killSwitch(market: string, timeoutSec: number | null): Promise<KillSwitchState | null>;
}

/**
 * A failure of the dead-man timer, never thrown out of it: `ERR_DEAD_MAN_ARM` (a set or reset failed; retried),
 * `ERR_DEAD_MAN_EXPIRED` (no reset for the whole timeout: the venue has cancelled the market's orders),
 * `ERR_DEAD_MAN_CLEAR` (the clean stop could not delete the timer: it will run out and cancel nothing of ours,
 * as the stop cancelled them already, or whatever was left). `cause` is the venue's error.
 */
export class DeadManError extends BotError {
  constructor(
    message: string,
    readonly market: string,
    code: 'ERR_DEAD_MAN_ARM' | 'ERR_DEAD_MAN_EXPIRED' | 'ERR_DEAD_MAN_CLEAR',
    cause?: unknown,
  ) {
    super(message, { code, cause });
  }
}

export interface DeadManOptions {
  readonly api: KillSwitchApi;
  /** Every market the daemon trades; one venue timer each. */
  readonly markets: readonly string[];
  /** The venue's timer, seconds 5-600 (config `deadMan.timeoutSec`). */
  readonly timeoutSec: number;
  /** Every reset is scheduled here (virtual time in tests); its `now()` is the clock. */
  readonly scheduler: SchedulerLike;
  readonly logger: Logger;
  /** Arms, expiries and the clear are journalled (`deadman` records); resets are not (one every few seconds). */
  readonly journal?: Journal;
  /** Each failure, also logged (for alerts). */
  readonly onError?: (error: DeadManError) => void;
}

export interface DeadManMarketStatus {
  readonly market: string;
  /** Engine clock (ms) at the start of the last successful set or reset. */
  readonly lastArmedAt?: number;
  /** Unix seconds, as the venue answered. */
  readonly cancellationTime?: number;
  /** Failed attempts since the last success. */
  readonly failures: number;
}

interface Slot {
  readonly market: string;
  lastArmedAt?: number;
  cancellationTime?: number;
  failures: number;
  /** Set when the venue's timer ran out without a reset; cleared (and journalled as a new arm) by the next success. */
  expired: boolean;
  armed: boolean;
  inFlight?: Promise<void> | undefined;
  next?: Subscription;
}

/**
 * The daemon's dead-man switch on the venue's kill-switch: `start()` arms a timer for every market it trades,
 * then resets each on the injected scheduler, a third of the timeout after the last success (dead-man-policy.ts).
 * If the daemon dies or hangs, the resets stop and the venue cancels its orders when the timer runs out. A failed
 * reset is logged (DeadManError, typed) and retried sooner; nothing here throws or rejects, so it never takes the
 * daemon down. `clear()` (the clean stop, after the cancels) stops the resets and deletes the timers.
 */
export class DeadManTimer {
  readonly plan: DeadManPlan;
  private readonly slots: Slot[];
  private running = false;

  constructor(private readonly o: DeadManOptions) {
    this.plan = planDeadMan(o.timeoutSec);
    this.slots = [...new Set(o.markets)].map((market) => ({ market, failures: 0, expired: false, armed: false }));
  }

  /** Arms every market's timer (one attempt each, awaited; a failure is retried on the schedule) and starts the resets. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await Promise.all(this.slots.map((s) => this.attempt(s)));
  }

  /** Stops resetting (the venue's timers keep running out) and waits for a reset in flight. Idempotent. */
  async stop(): Promise<void> {
    this.running = false;
    for (const s of this.slots) s.next?.unsubscribe();
    await Promise.all(this.slots.flatMap((s) => (s.inFlight === undefined ? [] : [s.inFlight])));
  }

  /**
   * The clean stop: no more resets, then every timer deleted but those of `keepArmed` (markets where the stop could
   * not confirm our orders gone: the venue's timer cancels them when it runs out). Failures are logged, never thrown.
   */
  async clear(keepArmed: ReadonlySet<string> = new Set()): Promise<void> {
    await this.stop();
    for (const market of keepArmed) {
      if (this.slots.some((s) => s.market === market)) {
        this.o.logger.warn(
          { market },
          'dead-man timer left armed: orders of this market could not be confirmed cancelled; the venue cancels them when it runs out',
        );
      }
    }
    await Promise.all(
      this.slots
        .filter((s) => !keepArmed.has(s.market))
        .map(async (s) => {
          try {
            await this.o.api.killSwitch(s.market, null);
            s.armed = false;
            this.journal({ action: 'clear', market: s.market });
            this.o.logger.info({ market: s.market }, 'dead-man timer cleared');
          } catch (error) {
            this.fail(
              new DeadManError(`dead-man: could not clear the timer of ${s.market}: ${messageOf(error)}`, s.market, 'ERR_DEAD_MAN_CLEAR', error),
              'error',
            );
          }
        }),
    );
  }

  status(): DeadManMarketStatus[] {
    return this.slots.map((s) => ({
      market: s.market,
      failures: s.failures,
      ...(s.lastArmedAt !== undefined ? { lastArmedAt: s.lastArmedAt } : {}),
      ...(s.cancellationTime !== undefined ? { cancellationTime: s.cancellationTime } : {}),
    }));
  }

  private attempt(s: Slot): Promise<void> {
    const startedAt = this.o.scheduler.now();
    // through a promise constructor, so that even a call that throws synchronously is a failure like the others
    const done = new Promise<KillSwitchState | null>((resolve) => resolve(this.o.api.killSwitch(s.market, this.plan.timeoutSec))).then(
      (state) => this.succeeded(s, startedAt, state),
      (error: unknown) => this.failed(s, error),
    );
    s.inFlight = done.finally(() => {
      s.inFlight = undefined;
      if (!this.running) return;
      const delay = nextResetDelay(this.plan, s.failures === 0 ? 'ok' : 'failed', startedAt, s.lastArmedAt, this.o.scheduler.now());
      s.next = this.o.scheduler.schedule(() => void this.attempt(s), delay);
    });
    return s.inFlight;
  }

  private succeeded(s: Slot, startedAt: number, state: KillSwitchState | null): void {
    const first = !s.armed || s.expired;
    s.lastArmedAt = startedAt;
    if (state !== null) s.cancellationTime = state.cancellationTime;
    s.failures = 0;
    s.armed = true;
    s.expired = false;
    if (!first) {
      this.o.logger.debug({ market: s.market, cancellationTime: s.cancellationTime }, 'dead-man timer reset');
      return;
    }
    this.journal({
      action: 'arm',
      market: s.market,
      timeoutSec: this.plan.timeoutSec,
      ...(s.cancellationTime !== undefined ? { cancellationTime: s.cancellationTime } : {}),
    });
    this.o.logger.info(
      { market: s.market, timeoutSec: this.plan.timeoutSec, everyMs: this.plan.periodMs },
      "dead-man timer armed: the venue cancels this market's orders if the daemon stops resetting it",
    );
  }

  private failed(s: Slot, error: unknown): void {
    s.failures++;
    const now = this.o.scheduler.now();
    this.fail(
      new DeadManError(
        `dead-man: ${s.armed ? 'reset' : 'arming'} of ${s.market} failed (${s.failures} in a row): ${messageOf(error)}`,
        s.market,
        'ERR_DEAD_MAN_ARM',
        error,
      ),
      'warn',
    );
    if (s.armed && !s.expired && s.lastArmedAt !== undefined && now >= expiresAt(this.plan, s.lastArmedAt)) {
      s.expired = true;
      this.journal({ action: 'expired', market: s.market });
      const ms = now - s.lastArmedAt;
      this.fail(
        new DeadManError(
          `dead-man: no reset of ${s.market} for ${ms} ms: the venue's timer has run out and cancelled the account's orders there`,
          s.market,
          'ERR_DEAD_MAN_EXPIRED',
          error,
        ),
        'error',
      );
    }
  }

  private fail(error: DeadManError, level: 'warn' | 'error'): void {
    this.o.logger[level](
      { market: error.market, code: error.code, failures: this.slots.find((s) => s.market === error.market)?.failures, cause: causeCode(error.cause) },
      error.message,
    );
    try {
      this.o.onError?.(error);
    } catch {
      // a listener's failure is its own business
    }
  }

  private journal(r: { action: 'arm' | 'expired' | 'clear'; market: string; timeoutSec?: number; cancellationTime?: number }): void {
    try {
      this.o.journal?.append({ t: this.o.scheduler.now(), type: 'deadman', ...r });
    } catch (error) {
      // a journal that refuses (closed, or stopped by a failed fsync) must not stop the resets
      this.o.logger.warn({ code: (error as { code?: string }).code, market: r.market }, `dead-man: ${r.action} not journalled: ${messageOf(error)}`);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function causeCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | undefined)?.code as string | undefined;
}
