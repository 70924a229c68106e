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
 * or cancelled untouched; the venue's records cannot tell the two apart), so `canceled` if the engine saw it
 * accepted or sent a cancel for it (that cancel may be what removed it: a chaos-harness finding, where a garbage
 * answer to the order and one to its cancel left an order the venue had cancelled journalled as never placed),
 * else `rejected`.
 */
export function provenState(order: TrackedOrder, facts: VenueFacts): OrderState {
  if (facts.open) return stateFromVenue(facts.open);
  const dealt = facts.deals.reduce((sum, d) => sum.plus(d.amount), ZERO);
  if (dealt.gte(order.amount)) return 'filled';
  if (dealt.gt(0)) return 'canceled';
  const unconfirmed = order.orderId === undefined && (order.state === 'pending' || order.state === 'unknown');
  return unconfirmed && order.cancelSent !== true ? 'rejected' : 'canceled';
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
  /**
   * How long after an order's outcome became unknown (or after a restart found it in flight) its absence from
   * the venue proves it was never placed. A request the client gave up on may still be on its way or queued at
   * the venue and be acted on later; the venue refuses a request whose nonce is more than 5 s old (nonceWindow,
   * exchange-facts §1), so after that window and a margin "not found" is final. Before, the order stays
   * unknown (live to its strategy, so nothing is placed in its stead) and is looked up again. Default 7000.
   */
  readonly notPlacedAfterMs?: number;
}

/** NONCE_WINDOW_MS of the venue (5 s) plus 2 s for clock skew and the request's own travel. */
export const NOT_PLACED_AFTER_MS = 7_000;

/**
 * Settles orders whose fate is unknown (a submit that got no usable answer, a cancel that found nothing,
 * a journalled order after a restart) from the venue's records. NEVER resubmits: the strategy sees the
 * proven state on orders$ and decides again. Failed look-ups retry on the scheduler with backoff.
 */
export class Reconciler {
  private readonly running = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, Subscription>();
  /** When each unconfirmed order was first looked up: the start of its not-placed window. */
  private readonly unknownSince = new Map<string, number>();
  private stopped = false;

  constructor(private readonly o: ReconcilerOptions) {}

  get pending(): number {
    return this.running.size + this.timers.size;
  }

  /**
   * Reconciles now (or joins a reconcile already running for that id). An unconfirmed order the venue does not
   * show is settled as never placed only once its not-placed window has passed; before, it is looked up again
   * at the window's end, or, with `wait` (the stop sequence), waited for.
   */
  async reconcile(clientOrderId: string, attempt = 0, opts: { wait?: boolean } = {}): Promise<void> {
    const joined = this.running.get(clientOrderId);
    if (joined !== undefined) {
      await joined;
      // the stop sequence must see it settled, not merely looked at
      const o = this.o.tracker.get(clientOrderId);
      if (opts.wait && o && (o.state === 'pending' || o.state === 'unknown')) await this.reconcile(clientOrderId, attempt, opts);
      return;
    }
    const run = this.run(clientOrderId, attempt, opts.wait === true);
    this.running.set(clientOrderId, run);
    try {
      await run;
    } finally {
      this.running.delete(clientOrderId);
    }
  }

  private async run(clientOrderId: string, attempt: number, wait: boolean): Promise<void> {
    const order = this.o.tracker.get(clientOrderId);
    if (!order) return;
    const unconfirmed = order.orderId === undefined && (order.state === 'pending' || order.state === 'unknown');
    if (unconfirmed && !this.unknownSince.has(clientOrderId)) this.unknownSince.set(clientOrderId, this.o.now());
    try {
      let lookedAt = this.o.now();
      let facts = await venueFacts(this.o.api, order.market, clientOrderId);
      for (;;) {
        // "not open, no deal" from a look-up that began before the order was first seen on the venue (e.g. by the
        // open-orders poll while this look-up was on its way) proves nothing: look again (a chaos-harness finding:
        // such stale facts settled a live order as cancelled, and it filled afterwards)
        if (!facts.open && facts.deals.length === 0 && order.confirmedAt !== undefined && order.confirmedAt >= lookedAt) {
          lookedAt = this.o.now();
          facts = await venueFacts(this.o.api, order.market, clientOrderId);
          continue;
        }
        const pause = this.notPlacedWait(clientOrderId, facts);
        if (pause <= 0) break;
        if (!wait) {
          this.later(clientOrderId, pause, attempt);
          return;
        }
        await new Promise<void>((resolve) => this.o.scheduler.schedule(() => resolve(), pause));
        lookedAt = this.o.now();
        facts = await venueFacts(this.o.api, order.market, clientOrderId);
      }
      this.unknownSince.delete(clientOrderId);
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
      if (wait) throw error;
      this.later(clientOrderId, delay, attempt + 1);
    }
  }

  /**
   * Milliseconds to wait before "nothing on the venue" may be taken as "never placed" for this order, or 0
   * when the facts are conclusive (it is open, it has deals, it was confirmed once, or the window has passed).
   */
  private notPlacedWait(clientOrderId: string, facts: VenueFacts): number {
    const order = this.o.tracker.get(clientOrderId);
    const since = this.unknownSince.get(clientOrderId);
    if (!order || since === undefined || facts.open || facts.deals.length > 0) return 0;
    if (order.orderId !== undefined || (order.state !== 'pending' && order.state !== 'unknown')) return 0;
    return Math.max(0, since + (this.o.notPlacedAfterMs ?? NOT_PLACED_AFTER_MS) - this.o.now());
  }

  /** Schedules a reconcile on the engine's scheduler; nothing once stopped. */
  later(clientOrderId: string, delayMs: number, attempt = 0): void {
    if (this.stopped || this.timers.has(clientOrderId)) return;
    const sub = this.o.scheduler.schedule(() => {
      this.timers.delete(clientOrderId);
      void this.reconcile(clientOrderId, attempt);
    }, delayMs);
    this.timers.set(clientOrderId, sub);
  }

  /**
   * Cancels the scheduled look-ups, and no later one is scheduled: a look-up still in flight that fails after this
   * (the client is closed next) would otherwise reschedule itself with backoff for ever and keep a stopped daemon's
   * process alive (a chaos-harness finding: SIGKILLed 60 s after its clean stop). The stop sequence settles what is
   * left with explicit `reconcile(…, { wait: true })` calls.
   */
  stop(): void {
    this.stopped = true;
    for (const s of this.timers.values()) s.unsubscribe();
    this.timers.clear();
  }
}
