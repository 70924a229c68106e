import type { Balances } from '../model/balance.js';
import type { Deal } from '../model/order.js';
import { DealTracker } from '../streams/deal-tracker.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Executor } from './executor.js';
import type { OrderTracker } from './order-tracker.js';
import type { Reconciler } from './reconcile.js';
import { cancelAllWhereAlone, type CancelAllPort } from './shutdown-cancel-all.js';

/** What the stop sequence needs from the engine. */
export interface StopPort extends CancelAllPort {
  readonly api: TradingApi;
  readonly executor: Executor;
  readonly tracker: OrderTracker;
  readonly reconciler: Reconciler;
  readonly now: () => number;
  readonly dryRun: boolean;
  readonly markets: readonly string[];
  emit(e: EngineEvent): void;
  /** A queued submission that was dropped before being sent. */
  dropped(clientOrderId: string): void;
  cancel(strategyId: string, clientOrderId: string): void;
  handleDeal(deal: Deal): void;
  balances(value: Balances): void;
}

/**
 * After the strategies are unsubscribed: (1) drop queued intents that were never sent, (2) wait for requests in
 * flight, (3) cancel every live order when configured and wait, (4) settle orders still unknown (or pending since a restart), (5) sweep the
 * deals once more so every fill up to now is journalled, (6) journal the final balances. Never throws: each
 * failure becomes an `error` event and the sequence goes on, so the journal is always flushed and closed.
 */
export async function runStopSequence(p: StopPort, opts: { cancel: boolean; startedAt: number }): Promise<void> {
  const guard = async (what: string, f: () => Promise<void>): Promise<void> => {
    try {
      await f();
    } catch (error) {
      p.emit({ type: 'error', at: p.now(), code: (error as { code?: string }).code ?? 'ERR_STOP', message: `${what}: ${(error as Error).message}` });
    }
  };
  for (const id of p.executor.clear()) p.dropped(id);
  await guard('draining the queue', () => p.executor.drain());
  if (opts.cancel) {
    // a market one strategy trades alone: one cancel-all request (see shutdown-cancel-all.ts); the rest one by one
    const wholesale = p.dryRun ? new Set<string>() : await cancelAllWhereAlone(p, opts.startedAt);
    for (const o of p.tracker.liveOrders()) {
      if (wholesale.has(o.market) && o.state !== 'unknown') continue;
      p.tracker.clearCancel(o.clientOrderId);
      p.cancel(o.strategyId, o.clientOrderId);
    }
    await guard('cancelling open orders', () => p.executor.drain());
  }
  p.reconciler.stop();
  if (p.dryRun) return;
  // unknown (and, after a restart, still pending) orders are settled for good: waiting out their not-placed
  // window when the venue does not show them yet (see Reconciler), all at once
  await Promise.all(
    p.tracker
      .liveOrders()
      .filter((o) => o.state === 'unknown' || o.state === 'pending')
      .map((o) => guard(`reconcile ${o.clientOrderId}`, () => p.reconciler.reconcile(o.clientOrderId, 0, { wait: true }))),
  );
  for (const market of p.markets) {
    await guard(`final deals of ${market}`, async () => {
      const sweep = new DealTracker({ since: opts.startedAt / 1000 - 60, knownIds: p.tracker.seenDealIds() });
      for (const d of await sweep.fetchNew((offset, limit) => p.api.deals({ market, offset, limit }))) p.handleDeal(d);
    });
  }
  await guard('final balances', async () => p.balances(await p.api.tradeBalance()));
}
