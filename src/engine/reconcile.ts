import type { SchedulerLike, Subscription } from 'rxjs';
import type { Deal, Order } from '../model/order.js';
import type { OrderState } from '../strategy/context.js';
import type { TradingApi } from '../venue/trading-api.js';
import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';
import { fmt, ZERO } from '../model/decimal.js';
import { stateFromVenue, type OrderTracker, type TrackedOrder } from './order-tracker.js';

export interface VenueFacts {
  /** The order as it rests on the venue, when it is open. */
  readonly open?: Order;
  /** Every deal of the order (oldest first). */
  readonly deals: readonly Deal[];
}

const PAGE = 100;

/** Every open order of the account in `market`, following the offset pages. */
export async function fetchAllOpenOrders(api: TradingApi, market: string): Promise<Order[]> {
  const all: Order[] = [];
  for (let offset = 0; offset <= 10_000; offset += PAGE) {
    const page = await api.openOrders({ market, limit: PAGE, offset });
    all.push(...page);
    if (page.length < PAGE) break;
  }
  return all;
}

/** Every deal of one client order id (paged). */
export async function fetchDealsOf(api: TradingApi, market: string, clientOrderId: string): Promise<Deal[]> {
  const all: Deal[] = [];
  for (let offset = 0; offset <= 10_000; offset += PAGE) {
    const page = await api.deals({ market, clientOrderId, limit: PAGE, offset });
    all.push(...page);
    if (page.length < PAGE) break;
  }
  return all.filter((d) => d.clientOrderId === clientOrderId).sort((a, b) => a.time - b.time || a.id - b.id);
}

/** What the venue knows about one client order id: open-orders by id first, then its deals. */
export async function venueFacts(api: TradingApi, market: string, clientOrderId: string): Promise<VenueFacts> {
  const open = (await api.openOrders({ market, clientOrderId })).find((o) => o.clientOrderId === clientOrderId);
  const deals = await fetchDealsOf(api, market, clientOrderId);
  return open ? { open, deals } : { deals };
}

/**
 * The state the venue's records prove. Not open and no deal: nothing of it is on the venue (never arrived,
 * or cancelled untouched), so `rejected` if the engine never saw it accepted, else `canceled`.
 */
export function provenState(order: TrackedOrder, facts: VenueFacts): OrderState {
  if (facts.open) return stateFromVenue(facts.open);
  const dealt = facts.deals.reduce((sum, d) => sum.plus(d.amount), ZERO);
  if (dealt.gte(order.amount)) return 'filled';
  if (dealt.gt(0)) return 'canceled';
  return order.orderId === undefined && (order.state === 'pending' || order.state === 'unknown') ? 'rejected' : 'canceled';
}

export interface ReconcilerOptions {
  readonly api: TradingApi;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly emit: (e: EngineEvent) => void;
  /** Routes deals found while reconciling through the normal fill path (ledger, journal, fills$), once each. */
  readonly applyDeal: (deal: Deal) => void;
  /** Retry delays after a failed reconcile, ms (doubling, capped). */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number };
}

/**
 * Settles orders whose fate is unknown (a submit that got no usable answer, a cancel that found nothing,
 * a journalled order after a restart) from the venue's records. NEVER resubmits: the strategy sees the
 * proven state on orders$ and decides again. Failed look-ups retry on the scheduler with backoff.
 */
export class Reconciler {
  private readonly running = new Set<string>();
  private readonly timers = new Map<string, Subscription>();

  constructor(private readonly o: ReconcilerOptions) {}

  get pending(): number {
    return this.running.size + this.timers.size;
  }

  /** Reconciles now (or joins a reconcile already running for that id). */
  async reconcile(clientOrderId: string, attempt = 0): Promise<void> {
    const order = this.o.tracker.get(clientOrderId);
    if (!order || this.running.has(clientOrderId)) return;
    this.running.add(clientOrderId);
    try {
      const facts = await venueFacts(this.o.api, order.market, clientOrderId);
      for (const d of facts.deals) this.o.applyDeal(d);
      const state = provenState(order, facts);
      this.o.tracker.move(clientOrderId, state, facts.open);
      const after = this.o.tracker.get(clientOrderId) ?? order;
      this.o.journal.append({
        t: this.o.now(),
        type: 'outcome',
        strategyId: order.strategyId,
        clientOrderId,
        state: after.state,
        ...(after.orderId !== undefined ? { orderId: after.orderId } : {}),
        left: fmt(this.o.tracker.left(after)),
        reason: 'reconciled',
      });
      this.o.emit({ type: 'reconciled', at: this.o.now(), strategyId: order.strategyId, clientOrderId, state: after.state });
    } catch (error) {
      const retry = this.o.retry ?? { initialMs: 1000, maxMs: 30_000 };
      const delay = Math.min(retry.maxMs, retry.initialMs * 2 ** attempt);
      this.o.emit({
        type: 'error',
        at: this.o.now(),
        strategyId: order.strategyId,
        code: (error as { code?: string }).code ?? 'ERR_RECONCILE',
        message: `reconcile ${clientOrderId} failed, retry in ${delay} ms: ${(error as Error).message}`,
      });
      this.later(clientOrderId, delay, attempt + 1);
    } finally {
      this.running.delete(clientOrderId);
    }
  }

  /** Schedules a reconcile on the engine's scheduler. */
  later(clientOrderId: string, delayMs: number, attempt = 0): void {
    if (this.timers.has(clientOrderId)) return;
    const sub = this.o.scheduler.schedule(() => {
      this.timers.delete(clientOrderId);
      void this.reconcile(clientOrderId, attempt);
    }, delayMs);
    this.timers.set(clientOrderId, sub);
  }

  stop(): void {
    for (const s of this.timers.values()) s.unsubscribe();
    this.timers.clear();
  }
}
