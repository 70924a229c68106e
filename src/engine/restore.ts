import type { Logger } from 'pino';
import { fmt, ZERO } from '../model/decimal.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import { journalOrder } from './journal-records.js';
import { inFlight, type JournalState } from './journal-replay.js';
import { stateFromVenue, type OrderTracker } from './order-tracker.js';
import { fetchAllOpenOrders } from '../streams/fetch-open-orders.js';
import type { Reconciler } from './reconcile.js';

export interface RestoreStrategy {
  readonly id: string;
  readonly market: string;
  readonly owns: (clientOrderId: string) => boolean;
}

export interface RestoreOptions {
  readonly state: JournalState;
  readonly strategies: readonly RestoreStrategy[];
  readonly api: TradingApi;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly reconciler: Reconciler;
  readonly now: () => number;
  readonly emit: (e: EngineEvent) => void;
  readonly logger: Logger;
  /** How the open-orders look-up is repeated on a failure (see startup-retry.ts). Default: once, no retry. */
  readonly retry?: <T>(what: string, fn: () => Promise<T>) => Promise<T>;
}

/**
 * Start-up: (1) re-tracks every order the journal left in flight (pending, open, unknown...) for a configured
 * strategy; (2) reads the account's open orders per market and adopts those whose client id carries a
 * strategy's prefix but that the journal does not know (their tag comes from the journal when it has one);
 * (3) reconciles every re-tracked order against the venue's open orders and deals, so fills made while the
 * daemon was down are counted and orders that vanished are settled. Nothing is ever resubmitted.
 */
export async function restoreAndAdopt(o: RestoreOptions): Promise<{ restored: number; adopted: number }> {
  const byId = new Map(o.strategies.map((s) => [s.id, s]));
  const restoredIds: string[] = [];
  for (const r of inFlight(o.state)) {
    if (!byId.has(r.strategyId)) {
      o.logger.warn(
        { clientOrderId: r.clientOrderId, strategyId: r.strategyId },
        'journal has an in-flight order of a strategy no longer configured; left alone',
      );
      continue;
    }
    o.tracker.track(
      {
        clientOrderId: r.clientOrderId,
        strategyId: r.strategyId,
        market: r.market,
        side: r.side,
        kind: r.kind,
        price: r.price,
        amount: r.amount,
        ...(r.activationPrice ? { activationPrice: r.activationPrice } : {}),
        ...(r.tag !== undefined ? { tag: r.tag } : {}),
      },
      {
        state: r.state,
        ...(r.orderId !== undefined ? { orderId: r.orderId } : {}),
        venueLeft: r.venueLeft,
        dealt: r.dealt,
        ...(r.cancelSent ? { cancelSent: true } : {}),
      },
    );
    restoredIds.push(r.clientOrderId);
  }

  let adopted = 0;
  const markets = [...new Set(o.strategies.map((s) => s.market))];
  for (const market of markets) {
    const owners = o.strategies.filter((s) => s.market === market);
    const open = o.retry ? await o.retry(`open orders of ${market}`, () => fetchAllOpenOrders(o.api, market)) : await fetchAllOpenOrders(o.api, market);
    for (const v of open) {
      const owner = owners.find((s) => s.owns(v.clientOrderId));
      if (!owner || o.tracker.has(v.clientOrderId)) continue;
      const tag = o.state.orders.get(v.clientOrderId)?.tag;
      // dealt stays 0: the venue's `left` already holds past fills, and later deals lower it further (min of both).
      o.tracker.track(
        {
          clientOrderId: v.clientOrderId,
          strategyId: owner.id,
          market: v.market,
          side: v.side,
          kind: v.kind,
          price: v.price,
          amount: v.amount,
          ...(v.activationPrice ? { activationPrice: v.activationPrice } : {}),
          ...(tag !== undefined ? { tag } : {}),
        },
        { state: stateFromVenue(v), orderId: v.orderId, venueLeft: v.left, dealt: ZERO },
      );
      o.journal.append({
        t: o.now(),
        type: 'adopt',
        strategyId: owner.id,
        clientOrderId: v.clientOrderId,
        orderId: v.orderId,
        order: journalOrder(v),
        left: fmt(v.left),
      });
      o.emit({ type: 'adopted', at: o.now(), strategyId: owner.id, clientOrderId: v.clientOrderId });
      adopted += 1;
    }
  }

  for (const id of restoredIds) await o.reconciler.reconcile(id);
  return { restored: restoredIds.length, adopted };
}
