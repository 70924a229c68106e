import { createPrng } from '../sim/prng.js';

/** One SIGKILL of the plan. */
export interface PlannedKill {
  /** Index of the daemon (account) to kill. */
  readonly target: number;
  /** Kill once the run's order submissions reach this many... */
  readonly atOrders: number;
  /**
   * An early kill ignores `atOrders`: it hits the daemon the previous kill restarted, this long (ms) after that
   * restart, i.e. while it replays its journal, reconciles and adopts.
   */
  readonly earlyAfterMs?: number;
  /** Time the daemon stays down before its restart (fills may happen meanwhile), ms. */
  readonly downMs: number;
}

/**
 * The SIGKILL moments of a run, from its seed: spread over the orders (uniform thresholds, sorted), a quarter
 * of them "early" (a few hundred ms to a few s after the previous restart of the same daemon, when it is
 * replaying its journal, reconciling and adopting), each followed by a short seeded downtime.
 */
export function planKills(seed: number, kills: number, orders: number, daemons: number): PlannedKill[] {
  const prng = createPrng(seed * 7919 + 17);
  const thresholds = Array.from({ length: kills }, () => Math.floor(orders * (0.03 + 0.94 * prng.next()))).sort((a, b) => a - b);
  const plan: PlannedKill[] = [];
  for (const [i, atOrders] of thresholds.entries()) {
    const drawn = prng.int(daemons);
    const early = i > 0 && prng.next() < 0.25;
    const earlyAfterMs = 300 + prng.int(3000);
    const downMs = prng.int(1500);
    plan.push(early ? { target: plan[i - 1]!.target, atOrders, earlyAfterMs, downMs } : { target: drawn, atOrders, downMs });
  }
  return plan;
}
