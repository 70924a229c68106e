import { pino } from 'pino';
import { Observable, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import type { AccountLimits } from '../../src/engine/account-risk.js';
import { createRuntime, type PollingOptions, type RuntimeStrategy } from '../../src/engine/runtime.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { MemoryJournal, type Journal } from '../../src/engine/journal.js';
import { D } from '../../src/model/decimal.js';
import type { OwnOrder, StrategyContext } from '../../src/strategy/context.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import type { Intent } from '../../src/strategy/intents.js';
import { marketFixture } from '../../src/strategy/testing.js';
import type { TradingApi } from '../../src/venue/trading-api.js';

export const market = marketFixture({ minAmount: D('0.001'), minTotal: D('1') });

/**
 * Moves a VirtualTimeScheduler on by `ms` in 50 ms steps: runs what is due, lets promises settle (one macrotask turn),
 * and moves the clock on even when nothing was due. `each` runs after every step (e.g. a fake exchange's housekeeping).
 */
export async function stepVirtual(scheduler: VirtualTimeScheduler, ms: number, each?: () => void): Promise<void> {
  for (let t = 0; t < ms; t += 50) {
    const target = scheduler.now() + 50;
    scheduler.maxFrames = target;
    scheduler.flush();
    scheduler.frame = target; // virtual time moves on even when nothing was due
    await new Promise((r) => setImmediate(r));
    each?.();
  }
}

export interface RigOptions {
  readonly journal?: Journal;
  /** Over the rig's defaults (book 100 ms, balances 1 s, open orders 500 ms, deals 200 ms, stale after 60 s). */
  readonly polling?: Partial<PollingOptions>;
  readonly account?: AccountLimits;
}

/** Drives the runtime on virtual time against `venue`: run due actions, let promises settle, advance. */
export function virtualRig(venue: TradingApi, strategies: RuntimeStrategy[], options: RigOptions = {}) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const journal = options.journal ?? new MemoryJournal();
  const events: EngineEvent[] = [];
  const runtime = createRuntime({
    api: venue,
    scheduler,
    clock: { now: () => scheduler.now() },
    logger: pino({ level: 'silent' }),
    markets: new Map([[market.name, market]]),
    strategies,
    // The fake venue's book moves only when a test moves it: stale after the default 5 s, which cancels every resting
    // order; most tests are not about that (runtime-market-data.test.ts is, and sets its own).
    polling: { bookMs: 100, balancesMs: 1000, openOrdersMs: 500, dealsMs: 200, staleAfterMs: 60_000, ...options.polling },
    journal,
    ...(options.account ? { account: { limits: options.account } } : {}),
  });
  runtime.events$.subscribe((e) => events.push(e));
  const settle = () => new Promise((r) => setImmediate(r));
  const advance = (ms: number) => stepVirtual(scheduler, ms);
  const of = <T extends EngineEvent['type']>(type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  return { runtime, events, of, advance, settle, journal, scheduler };
}

/** Emits `make(book, orders)`'s intents on every book, seeing its own orders. */
export function strategyOf(make: (ctx: StrategyContext<unknown>, orders: readonly OwnOrder[]) => Intent[]) {
  return defineStrategy({
    name: 'probe',
    params: z.object({}),
    create: (ctx) => {
      let orders: readonly OwnOrder[] = [];
      ctx.orders$.subscribe((o) => (orders = o));
      return new Observable<Intent>((sub) =>
        ctx.book$.subscribe(() => {
          for (const i of make(ctx, orders)) sub.next(i);
        }),
      );
    },
  });
}
