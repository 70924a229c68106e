import type { Deal } from '../model/order.js';
import { DealTracker } from '../streams/deal-tracker.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import type { OrderTracker } from './order-tracker.js';
import { fetchAllOpenOrders } from '../streams/fetch-open-orders.js';

/** What the cancel-all step needs from the engine (a part of the stop sequence's StopPort). */
export interface CancelAllPort {
  readonly api: TradingApi;
  readonly tracker: OrderTracker;
  readonly markets: readonly string[];
  readonly now: () => number;
  emit(e: EngineEvent): void;
  handleDeal(deal: Deal): void;
  /** The one strategy trading `market` in this daemon, or undefined when several do. Absent: the step is off. */
  soleStrategyOf?(market: string): string | undefined;
  /** Journals a `cancel` record for the order and emits `submitted` (before the cancel-all request). */
  cancelSent?(strategyId: string, clientOrderId: string): void;
  /** The venue cancelled the order: tracker → canceled, journal outcome, `canceled` event. */
  venueCanceled?(strategyId: string, clientOrderId: string): void;
}

/**
 * Shutdown cancels for a market that one strategy trades alone: one `order/cancel/all` instead of one
 * `order/cancel` per order (a grid of 40 levels leaves in 3-4 requests instead of 40).
 *
 * Cancel-all takes every order of the ACCOUNT in that market, so it is used only when the venue's open orders
 * of the market are all this strategy's (one open-orders read proves it); an order of anyone else there (another
 * daemon, a person) means one cancel per order as before. Below two live orders it saves nothing and is not used.
 *
 * After the cancel-all, the market's deals are swept so fills that came before it are applied (an order that
 * filled meanwhile ends `filled`, not `canceled`); what is still open or partly filled is then `canceled`, each
 * journalled (a `cancel` record before the request, an `outcome` after). Orders in doubt (`unknown`) are left to
 * the stop sequence's reconcile. Returns the markets it handled; the caller cancels the rest one by one.
 */
export async function cancelAllWhereAlone(p: CancelAllPort, startedAt: number): Promise<Set<string>> {
  const handled = new Set<string>();
  const api = p.api;
  if (api.cancelAll === undefined || p.soleStrategyOf === undefined || p.venueCanceled === undefined || p.cancelSent === undefined) return handled;
  for (const market of p.markets) {
    const strategyId = p.soleStrategyOf(market);
    if (strategyId === undefined) continue;
    const live = p.tracker.liveOrders().filter((o) => o.market === market && o.strategyId === strategyId);
    if (live.length < 2) continue;
    try {
      const venueOpen = await fetchAllOpenOrders(api, market);
      const foreign = venueOpen.some((v) => p.tracker.get(v.clientOrderId)?.strategyId !== strategyId);
      if (foreign) continue;
      for (const o of live) p.cancelSent(strategyId, o.clientOrderId);
      await api.cancelAll(market);
    } catch (error) {
      p.emit({
        type: 'error',
        at: p.now(),
        strategyId,
        code: (error as { code?: string }).code ?? 'ERR_CANCEL_ALL',
        message: `cancel all of ${market}: ${(error as Error).message}; cancelling one by one`,
      });
      continue;
    }
    handled.add(market);
    try {
      const sweep = new DealTracker({ since: startedAt / 1000 - 60, knownIds: p.tracker.seenDealIds() });
      for (const d of await sweep.fetchNew((offset, limit) => api.deals({ market, offset, limit }))) p.handleDeal(d);
    } catch (error) {
      p.emit({
        type: 'error',
        at: p.now(),
        strategyId,
        code: (error as { code?: string }).code ?? 'ERR_STOP',
        message: `deals of ${market} after cancel all: ${(error as Error).message}`,
      });
    }
    for (const o of live) {
      const now = p.tracker.get(o.clientOrderId);
      if (now !== undefined && (now.state === 'open' || now.state === 'partially-filled')) p.venueCanceled(strategyId, o.clientOrderId);
    }
  }
  return handled;
}

/** The engine's side of the cancel-all step: which strategy is alone on a market, and the per-order journalling. */
export function cancelAllHooks(e: {
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly now: () => number;
  readonly runs: ReadonlyArray<{ readonly id: string; readonly market: { readonly name: string } }>;
  emit(event: EngineEvent): void;
}): Required<Pick<CancelAllPort, 'soleStrategyOf' | 'cancelSent' | 'venueCanceled'>> {
  return {
    soleStrategyOf: (market) => {
      const on = e.runs.filter((r) => r.market.name === market);
      return on.length === 1 ? on[0]!.id : undefined;
    },
    cancelSent: (strategyId, id) => {
      e.tracker.requestCancel(id);
      e.journal.append({ t: e.now(), type: 'cancel', strategyId, clientOrderId: id });
      e.emit({ type: 'submitted', at: e.now(), strategyId, clientOrderId: id, kind: 'cancel' });
    },
    venueCanceled: (strategyId, id) => {
      e.tracker.move(id, 'canceled');
      const o = e.tracker.get(id);
      e.journal.append({
        t: e.now(),
        type: 'outcome',
        strategyId,
        clientOrderId: id,
        state: o?.state ?? 'canceled',
        ...(o?.orderId !== undefined ? { orderId: o.orderId } : {}),
      });
      e.emit({ type: 'canceled', at: e.now(), strategyId, clientOrderId: id });
    },
  };
}
