import type { Order } from '../model/order.js';
import type { KillSwitchOrderType } from '../venue/wire.js';

/** A running dead-man timer of one account and market (times on the sim's clock, Unix ms). */
export interface KillSwitchTimerState {
  readonly accountId: string;
  readonly market: string;
  readonly types: readonly KillSwitchOrderType[];
  readonly startMs: number;
  readonly dueMs: number;
}

/**
 * One expiry, kept so that a test (or an operator) can tell which orders the kill-switch cancelled, as opposed
 * to the client's own cancels: the account, market, when the timer was due and when the sim's tick acted.
 */
export interface KillSwitchFiring extends KillSwitchTimerState {
  readonly firedMs: number;
  /** The orders it cancelled, as they were at the cancel (status CANCELED). */
  readonly cancelled: readonly Order[];
}

/** Firings kept per exchange; the oldest go first (a long-running sim must not grow without bound). */
const MAX_FIRINGS = 1000;

/**
 * The kill-switch timers of the sim (one per account and market) and the log of their firings. Pure
 * bookkeeping on the time it is given: the exchange arms timers with its own clock and its tick (real time in
 * `bot sim`, virtual time in a lockstep backtest) takes the expired ones and cancels their orders.
 */
export class KillSwitches {
  private readonly timers = new Map<string, KillSwitchTimerState>();
  private readonly fired: KillSwitchFiring[] = [];

  /** Sets or resets the timer: it runs out `timeoutSec` after `nowMs`. */
  set(accountId: string, market: string, timeoutSec: number, types: readonly KillSwitchOrderType[], nowMs: number): KillSwitchTimerState {
    const timer = { accountId, market, types, startMs: nowMs, dueMs: nowMs + timeoutSec * 1000 };
    this.timers.set(key(accountId, market), timer);
    return timer;
  }

  /** Deletes the timer; true when there was one. */
  clear(accountId: string, market: string): boolean {
    return this.timers.delete(key(accountId, market));
  }

  /** The account's running timers, of one market or all, by market name. */
  list(accountId: string, market?: string): KillSwitchTimerState[] {
    const out = [...this.timers.values()].filter((t) => t.accountId === accountId && (market === undefined || t.market === market));
    return out.sort((a, b) => (a.market < b.market ? -1 : a.market > b.market ? 1 : 0));
  }

  /** Removes and returns the timers due at `nowMs` (a timer fires once, then is gone, as on the venue). */
  takeDue(nowMs: number): KillSwitchTimerState[] {
    const due: KillSwitchTimerState[] = [];
    for (const [k, t] of this.timers) {
      if (t.dueMs > nowMs) continue;
      this.timers.delete(k);
      due.push(t);
    }
    return due;
  }

  record(firing: KillSwitchFiring): void {
    this.fired.push(firing);
    if (this.fired.length > MAX_FIRINGS) this.fired.splice(0, this.fired.length - MAX_FIRINGS);
  }

  /** Firings, oldest first; of one account when given. */
  firings(accountId?: string): readonly KillSwitchFiring[] {
    return accountId === undefined ? [...this.fired] : this.fired.filter((f) => f.accountId === accountId);
  }
}

function key(accountId: string, market: string): string {
  return `${accountId}\u0000${market}`;
}
