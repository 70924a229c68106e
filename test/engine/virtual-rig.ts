import { pino } from 'pino';
import { Observable, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { z } from 'zod';
import { createRuntime, type RuntimeStrategy } from '../../src/engine/runtime.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import { D } from '../../src/model/decimal.js';
import type { OwnOrder, StrategyContext } from '../../src/strategy/context.js';
import { defineStrategy } from '../../src/strategy/define-strategy.js';
import type { Intent } from '../../src/strategy/intents.js';
import { marketFixture } from '../../src/strategy/testing.js';
import type { TradingApi } from '../../src/venue/trading-api.js';

export const market = marketFixture({ minAmount: D('0.001'), minTotal: D('1') });

/** Drives the runtime on virtual time: run due actions, let promises settle, advance. */
export function virtualRig(venue: TradingApi, strategies: RuntimeStrategy[], journal = new MemoryJournal()) {
  const scheduler = new VirtualTimeScheduler(VirtualAction, 0);
  const events: EngineEvent[] = [];
  const runtime = createRuntime({
    api: venue,
    scheduler,
    clock: { now: () => scheduler.now() },
    logger: pino({ level: 'silent' }),
    markets: new Map([[market.name, market]]),
    strategies,
    // The fake venue's book never moves (same timestamp and top): stale after the default 5 s, which cancels every
    // resting order; these tests are not about that (runtime-market-data.test.ts is).
    polling: { bookMs: 100, balancesMs: 1000, openOrdersMs: 500, dealsMs: 200, staleAfterMs: 60_000 },
    journal,
  });
  runtime.events$.subscribe((e) => events.push(e));
  const settle = () => new Promise((r) => setImmediate(r));
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      const target = scheduler.now() + 50;
      scheduler.maxFrames = target;
      scheduler.flush();
      scheduler.frame = target; // virtual time moves on even when nothing was due
      await settle();
    }
  };
  return { runtime, events, advance, settle, journal, scheduler };
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

