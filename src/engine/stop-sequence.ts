import type { SchedulerLike } from 'rxjs';
import type { Balances } from '../model/balance.js';
import type { Deal } from '../model/order.js';
import { fetchAllOpenOrders } from '../streams/fetch-open-orders.js';
import { DealTracker } from '../streams/deal-tracker.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Executor } from './executor.js';
import type { OrderTracker } from './order-tracker.js';
import { NOT_PLACED_AFTER_MS, type Reconciler } from './reconcile.js';
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
  /** True for a client order id of one of this daemon's strategies (its prefix). */
  owns(clientOrderId: string): boolean;
  /** The engine's scheduler: it bounds the settling of orders in doubt. */
  readonly scheduler: SchedulerLike;
  emit(e: EngineEvent): void;
  /** A queued submission that was dropped before being sent. */
  dropped(clientOrderId: string): void;
  cancel(strategyId: string, clientOrderId: string): void;
  handleDeal(deal: Deal): void;
  balances(value: Balances): void;
}

/** What the stop could establish about the daemon's orders on the venue. */
export interface StopOutcome {
  /** Our orders the venue lists after the stop's cancels (read then), by client order id. */
  readonly openAtStop: readonly string[];
  /** Orders whose state could not be confirmed (still unknown or pending, or their market's list could not be read). */
  readonly inDoubt: readonly string[];
  /** True when every market's open orders were read after the cancels. */
  readonly venueRead: boolean;
  /** The markets of `openAtStop` and `inDoubt`. */
  readonly unsettledMarkets: readonly string[];
}

/** How long the stop keeps settling orders in doubt: the venue's nonce window and a margin, then a little for cancels. */
export const SETTLE_IN_DOUBT_MS = NOT_PLACED_AFTER_MS + 5_000;

/**
 * After the strategies are unsubscribed: (1) drop queued intents that were never sent, (2) wait for requests in
 * flight, (3) cancel every live order when configured and wait, (4) settle every order still in doubt (unknown, or
 * pending since a restart) for at most SETTLE_IN_DOUBT_MS - each settled by a positive answer (see Reconciler), and,
 * when cancelling, every one that turns out placed is cancelled too, round after round, (5) sweep the deals once more
 * so every fill up to now is journalled, (6) read the venue's open orders: what it lists of ours is "open at stop",
 * (7) journal the final balances. Never throws: each failure becomes an `error` event and the sequence goes on, so
 * the journal is always flushed and closed. What could not be confirmed is named in the outcome (the daemon then
 * leaves the venue's dead-man timer armed for it).
 */
export async function runStopSequence(p: StopPort, opts: { cancel: boolean; startedAt: number }): Promise<StopOutcome> {
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
    cancelLive(p, (o) => !wholesale.has(o.market) || o.state === 'unknown');
    await guard('cancelling open orders', () => p.executor.drain());
  }
  p.reconciler.stop();
  if (p.dryRun) return { openAtStop: [], inDoubt: [], venueRead: false, unsettledMarkets: [] };

  const deadline = p.now() + SETTLE_IN_DOUBT_MS;
  for (let round = 0; round < 4 && p.now() < deadline; round++) {
    const doubtful = p.tracker.liveOrders().filter((o) => o.state === 'unknown' || o.state === 'pending');
    if (doubtful.length === 0) break;
    const settled = Promise.all(
      doubtful.map((o) => guard(`reconcile ${o.clientOrderId}`, () => p.reconciler.reconcile(o.clientOrderId, 0, { wait: true, probe: opts.cancel }))),
    );
    let timer: { unsubscribe(): void } | undefined;
    await Promise.race([settled, new Promise<void>((resolve) => (timer = p.scheduler.schedule(() => resolve(), Math.max(0, deadline - p.now()))))]);
    timer?.unsubscribe();
    if (!opts.cancel) continue;
    // an order the venue showed only now (found open by the reconcile) is cancelled like the others were
    if (cancelLive(p, (o) => o.state === 'open' || o.state === 'partially-filled') > 0) await guard('cancelling orders found open', () => p.executor.drain());
  }

  for (const market of p.markets) {
    await guard(`final deals of ${market}`, async () => {
      const sweep = new DealTracker({ since: opts.startedAt / 1000 - 60, knownIds: p.tracker.seenDealIds() });
      for (const d of await sweep.fetchNew((offset, limit) => p.api.deals({ market, offset, limit }))) p.handleDeal(d);
    });
  }

  const openAtStop: string[] = [];
  const unsettled = new Set<string>();
  const unread = new Set<string>();
  for (const market of p.markets) {
    try {
      for (const o of await fetchAllOpenOrders(p.api, market)) {
        if (!p.owns(o.clientOrderId)) continue;
        openAtStop.push(o.clientOrderId);
        unsettled.add(market);
      }
    } catch (error) {
      unread.add(market);
      p.emit({
        type: 'error',
        at: p.now(),
        code: (error as { code?: string }).code ?? 'ERR_STOP',
        message: `open orders of ${market} after the stop: ${(error as Error).message}`,
      });
    }
  }
  const inDoubt = p.tracker
    .liveOrders()
    .filter((o) => o.state === 'unknown' || o.state === 'pending' || (unread.has(o.market) && !openAtStop.includes(o.clientOrderId)))
    .map((o) => {
      unsettled.add(o.market);
      return o.clientOrderId;
    });
  await guard('final balances', async () => p.balances(await p.api.tradeBalance()));
  return { openAtStop, inDoubt, venueRead: unread.size === 0, unsettledMarkets: [...unsettled] };
}

/** Asks a cancel for every live order `which` selects (a cancel already in flight is asked again); returns how many. */
function cancelLive(p: StopPort, which: (o: { market: string; state: string }) => boolean): number {
  let n = 0;
  for (const o of p.tracker.liveOrders()) {
    if (!which(o)) continue;
    p.tracker.clearCancel(o.clientOrderId);
    p.cancel(o.strategyId, o.clientOrderId);
    n += 1;
  }
  return n;
}
