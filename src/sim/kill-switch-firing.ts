import type { Order } from '../model/order.js';
import type { AccountState } from './account-state.js';
import type { KillSwitches, KillSwitchTimerState } from './kill-switches.js';
import type { MarketEngine } from './market-engine.js';
import { toOrder } from './sim-order.js';
import type { KillSwitchStatus } from './sim-types.js';

/**
 * The exchange's side of the kill switches (the timers are kill-switches.ts's bookkeeping): at its tick, cancels the
 * orders of each timer due at `nowMs` in that market (the sim's orders are all `spot`: a timer whose `types` leave
 * spot out cancels nothing) and records the firing.
 */
export function fireDueKillSwitches(
  killSwitches: KillSwitches,
  states: ReadonlyMap<string, AccountState>,
  engines: ReadonlyMap<string, MarketEngine>,
  scale: number,
  nowMs: number,
): void {
  for (const t of killSwitches.takeDue(nowMs)) {
    const state = states.get(t.accountId);
    const engine = engines.get(t.market);
    const cancelled: Order[] = [];
    if (state !== undefined && engine !== undefined && t.types.includes('spot')) {
      for (const o of [...state.open.values()]) {
        if (o.market !== t.market) continue;
        engine.cancel(o);
        cancelled.push(toOrder(o, scale));
      }
    }
    killSwitches.record({ ...t, firedMs: nowMs, cancelled });
  }
}

export function killSwitchStatus(t: KillSwitchTimerState): KillSwitchStatus {
  return { market: t.market, startTime: Math.floor(t.startMs / 1000), cancellationTime: Math.floor(t.dueMs / 1000), types: [...t.types] };
}
