import { ZERO, type Decimal } from '../model/decimal.js';
import { lt } from '../model/decimal-compare.js';
import { dadd } from '../model/decimal-small.js';
import type { Deal, Order, OrderTerms } from '../model/order.js';
import type { Clock, OrderState, OwnOrder } from '../strategy/context.js';
import { FinishedQueue } from './finished-queue.js';
import { canMove, isLive, stateFromVenue } from './order-states.js';
import { leftOf } from './journal-replay.js';
import type { Writable } from '../model/writable.js';

// the state machine's functions, where the engine has always imported them from
export { canMove, isLive, stateFromVenue };

/**
 * One order as the engine knows it: its terms (the OrderRequest's, model/order.ts), whose it is, and what is known of
 * its fate. `left` is derived: min(venue's last `left`, amount − deals seen).
 */
export interface TrackedOrder extends OrderTerms {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly tag?: string | undefined;
  state: OrderState;
  orderId?: number | undefined;
  venueLeft: Decimal;
  dealt: Decimal;
  updatedAt: number;
  /** Engine time it was tracked (submitted or adopted). */
  readonly createdAt: number;
  /** Engine time the venue's records first proved it exists (accept, adoption, a deal). */
  confirmedAt?: number | undefined;
  /** A cancel was queued or sent and has no outcome yet. */
  cancelRequested?: boolean | undefined;
  /**
   * A cancel request was sent for it at least once (this run or, from the journal, an earlier one): if the venue
   * shows nothing of it later, it was either never placed or removed by that cancel (see provenState).
   */
  cancelSent?: boolean | undefined;
  /**
   * The executed amount a FINAL venue record gave (a cancel's answer, the executed-orders history): no deal may take
   * `dealt` above it (see HeldDeals). Undefined while the venue has said nothing final.
   */
  finalDealt?: Decimal | undefined;
  /** Engine time of the last deal applied to it: an open-orders record requested before it cannot reflect it. */
  lastDealAt?: number | undefined;
  /**
   * The tracker's cached view of it (OrderTracker.view), dropped at every change: kept on the order itself, so reading
   * or dropping it costs no map operation (a live order's view is read on every orders$ flush, dropped on every change).
   */
  cachedView?: OwnOrder | undefined;
}

/** An order to track: its terms and client order id (a gated OrderRequest, a journalled or adopted order), owner and tag. */
export type NewOrder = OrderTerms & Pick<TrackedOrder, 'clientOrderId' | 'strategyId' | 'tag'>;

/**
 * Every order of every strategy: pending → open → partially filled → filled / canceled / rejected, and
 * unknown when a submit's outcome is unknown. Fills come only from deals, each deal id once.
 */
export class OrderTracker {
  private readonly orders = new Map<string, TrackedOrder>();
  /** The live subset, so per-intent work does not grow with the daemon's history. */
  private readonly liveIndex = new Map<string, TrackedOrder>();
  private readonly seenDeals = new Set<number>();
  /** The changes that left an order finished, oldest first: what prune drops is at their front (see finished-queue.ts). */
  private readonly finished = new FinishedQueue<TrackedOrder>();

  constructor(
    private readonly clock: Clock,
    /** Called after every change, with the owning strategy. */
    private readonly onChange: (strategyId: string, order: TrackedOrder) => void = () => {},
  ) {}

  /** Deal ids already applied (e.g. restored from the journal), so they are never counted twice. */
  markDealsSeen(ids: Iterable<number>): void {
    for (const id of ids) this.seenDeals.add(id);
  }

  seenDealIds(): Iterable<number> {
    return this.seenDeals.values();
  }

  hasSeenDeal(id: number): boolean {
    return this.seenDeals.has(id);
  }

  get(clientOrderId: string): TrackedOrder | undefined {
    return this.orders.get(clientOrderId);
  }

  has(clientOrderId: string): boolean {
    return this.orders.has(clientOrderId);
  }

  /** Registers an order (pending, or in the state given when restoring). */
  track(o: NewOrder, init?: { state: OrderState; orderId?: number; venueLeft?: Decimal; dealt?: Decimal; cancelSent?: boolean }): TrackedOrder {
    return this.trackFor(o.strategyId, o, init);
  }

  /**
   * `track` for an order whose owner is given apart (a gated order as it is: no `{ ...order, strategyId }` copy per
   * place, which V8 builds on its slow path).
   */
  trackFor(
    strategyId: string,
    o: Omit<NewOrder, 'strategyId'>,
    init?: { state: OrderState; orderId?: number; venueLeft?: Decimal; dealt?: Decimal; cancelSent?: boolean },
  ): TrackedOrder {
    const now = this.clock.now();
    const state = init?.state ?? 'pending';
    // One literal with every field, optional ones included (undefined when absent), so every tracked order has the
    // same hidden class. What this replaced, `{ ...o }` followed by property stores, gave each order a map of its
    // own (V8 does not share transitions from a spread clone): ~10 µs per order, and every function reading orders
    // (views, moves, free funds) went megamorphic.
    const order: TrackedOrder = {
      clientOrderId: o.clientOrderId,
      strategyId,
      market: o.market,
      side: o.side,
      kind: o.kind,
      price: o.price,
      amount: o.amount,
      activationPrice: o.activationPrice,
      postOnly: o.postOnly,
      ioc: o.ioc,
      rpi: o.rpi,
      stp: o.stp,
      tag: o.tag,
      state,
      orderId: init?.orderId,
      venueLeft: init?.venueLeft ?? o.amount,
      dealt: init?.dealt ?? ZERO,
      updatedAt: now,
      createdAt: now,
      confirmedAt: state !== 'pending' && state !== 'unknown' ? now : undefined,
      cancelRequested: undefined,
      cancelSent: init?.cancelSent === true ? true : undefined,
      finalDealt: undefined,
      lastDealAt: undefined,
      cachedView: undefined,
    };
    this.orders.set(o.clientOrderId, order);
    if (!isLive(state)) this.finished.add(order, now);
    this.index(order);
    this.onChange(order.strategyId, order);
    return order;
  }

  /** Moves an order; returns false (and changes nothing) for an illegal or unknown move. */
  move(clientOrderId: string, to: OrderState, venue?: Order): boolean {
    const o = this.orders.get(clientOrderId);
    if (!o) return false;
    if (venue) {
      o.orderId = venue.orderId;
      o.confirmedAt ??= this.clock.now();
      if (lt(venue.left, o.venueLeft)) o.venueLeft = venue.left;
    }
    if (!canMove(o.state, to)) {
      if (venue) this.touch(o);
      return false;
    }
    o.state = to;
    this.touch(o);
    return true;
  }

  /** Applies a venue record to the order it describes (state from left/dealStock). */
  applyVenueOrder(clientOrderId: string, venue: Order, opts: { ioc?: boolean } = {}): boolean {
    let to = stateFromVenue(venue);
    // An IOC order never rests: what did not fill at once is cancelled.
    if (opts.ioc && to !== 'filled') to = 'canceled';
    return this.move(clientOrderId, to, venue);
  }

  /**
   * Applies a deal once. Returns the order it belongs to (undefined for a foreign order) and whether it was new.
   * A deal also proves that a pending/unknown order reached the venue.
   */
  applyDeal(deal: Deal): { order: TrackedOrder | undefined; fresh: boolean } {
    if (this.seenDeals.has(deal.id)) return { order: this.orders.get(deal.clientOrderId), fresh: false };
    this.seenDeals.add(deal.id);
    const o = deal.clientOrderId ? this.orders.get(deal.clientOrderId) : undefined;
    if (!o) return { order: undefined, fresh: true };
    o.orderId = deal.orderId;
    o.confirmedAt ??= this.clock.now();
    o.dealt = dadd(o.dealt, deal.amount);
    o.lastDealAt = this.clock.now();
    const left = leftOf(o);
    const to: OrderState = left.isZero() ? 'filled' : o.state === 'rejected' ? 'unknown' : 'partially-filled';
    if (canMove(o.state, to)) o.state = to;
    this.touch(o);
    return { order: o, fresh: true };
  }

  /** Records the executed amount a final venue record gave (see TrackedOrder.finalDealt). */
  setFinalDealt(clientOrderId: string, dealt: Decimal): void {
    const o = this.orders.get(clientOrderId);
    if (o) o.finalDealt = dealt;
  }

  /** Marks a cancel as in flight; false when one already is (or the order is not live), so cancels are never doubled. */
  requestCancel(clientOrderId: string): boolean {
    const o = this.orders.get(clientOrderId);
    if (!o || !isLive(o.state) || o.cancelRequested) return false;
    o.cancelRequested = true;
    this.touch(o);
    return true;
  }

  /** A cancel request for it is about to go out (sticky: see TrackedOrder.cancelSent). */
  markCancelSent(clientOrderId: string): void {
    const o = this.orders.get(clientOrderId);
    if (o) o.cancelSent = true;
  }

  /** The cancel ended without removing the order (e.g. it failed): it may be asked for again. */
  clearCancel(clientOrderId: string): void {
    const o = this.orders.get(clientOrderId);
    if (!o || !o.cancelRequested) return;
    o.cancelRequested = false;
    this.touch(o);
  }

  left(o: TrackedOrder): Decimal {
    return leftOf(o);
  }

  /** What may still execute, as limits must count it (see riskLeftOf). */
  riskLeft(o: TrackedOrder): Decimal {
    return riskLeftOf(o);
  }

  /** Live orders of a strategy, as strategies see them. */
  live(strategyId: string): OwnOrder[] {
    const out: OwnOrder[] = [];
    for (const o of this.liveIndex.values()) if (o.strategyId === strategyId) out.push(this.view(o));
    return out;
  }

  liveOrders(): TrackedOrder[] {
    return [...this.liveIndex.values()];
  }

  /** The live orders as they are indexed, not copied: for a reader that only walks them (it must not change them). */
  liveValues(): IterableIterator<TrackedOrder> {
    return this.liveIndex.values();
  }

  all(): TrackedOrder[] {
    return [...this.orders.values()];
  }

  /** Drops terminal orders older than `beforeMs` to bound memory in a long-lived daemon. */
  prune(beforeMs: number): void {
    // the finished orders changed before the cut-off are those at the queue's front, as last changed: no walk over the
    // last ten minutes of orders on every balance poll. An entry of an order changed since (it has a later one), live
    // again or no longer held is passed over.
    if (this.finished.ordered) {
      this.finished.takeBefore(beforeMs, this.dropFinished);
      return;
    }
    // values(), not entries(): no [key, value] pair per order on every balance poll (the key is the order's id)
    for (const o of this.orders.values()) {
      if (!isLive(o.state) && o.updatedAt < beforeMs) {
        this.orders.delete(o.clientOrderId);
      }
    }
  }

  private readonly dropFinished = (o: TrackedOrder, at: number): void => {
    if (o.updatedAt === at && !isLive(o.state) && this.orders.get(o.clientOrderId) === o) this.orders.delete(o.clientOrderId);
  };

  /**
   * The strategy's view of an order. Views are immutable and cached until the order changes (every change goes
   * through `touch`), so the orders$ snapshot emitted after each change rebuilds only the changed orders.
   */
  view(o: TrackedOrder): OwnOrder {
    let v = o.cachedView;
    if (v === undefined) {
      v = buildView(o);
      o.cachedView = v;
    }
    return v;
  }

  private index(o: TrackedOrder): void {
    if (isLive(o.state)) this.liveIndex.set(o.clientOrderId, o);
    else this.liveIndex.delete(o.clientOrderId);
  }

  private touch(o: TrackedOrder): void {
    o.cachedView = undefined;
    this.index(o);
    const now = this.clock.now();
    o.updatedAt = now;
    if (!isLive(o.state)) this.finished.add(o, now);
    this.onChange(o.strategyId, o);
  }
}

/**
 * What may still execute of an order: `left` as the venue last reported it, except for an UNKNOWN order, whose whole
 * unfilled amount counts (a venue that stopped listing it may be lying; its own `left` is no proof either), so limits
 * and strategies can never take its absence as room for another order.
 */
export function riskLeftOf(o: TrackedOrder): Decimal {
  if (o.state !== 'unknown') return leftOf(o);
  const byDeals = o.amount.minus(o.dealt);
  return byDeals.isNegative() ? ZERO : byDeals;
}

/** Builds the view field by field in the order strategies always saw (no spread temporaries: it runs per change). */
function buildView(o: TrackedOrder): OwnOrder {
  const v: Writable<OwnOrder> = { clientOrderId: o.clientOrderId } as OwnOrder;
  if (o.orderId !== undefined) v.orderId = o.orderId;
  v.market = o.market;
  v.side = o.side;
  v.kind = o.kind;
  v.price = o.price;
  if (o.activationPrice) v.activationPrice = o.activationPrice;
  v.amount = o.amount;
  v.left = riskLeftOf(o);
  v.state = o.state;
  if (o.tag !== undefined) v.tag = o.tag;
  v.updatedAt = o.updatedAt;
  if (o.cancelRequested) v.cancelRequested = true;
  return v;
}
