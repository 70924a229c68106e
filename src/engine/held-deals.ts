import type { Deal } from '../model/order.js';

/** A deal held back from the journal while the venue's own records cannot vouch for it. */
export interface HeldDeal {
  readonly deal: Deal;
  /** Why it was held (the first check it failed). */
  readonly reason: string;
  /** Engine time it was first held. */
  readonly since: number;
}

/**
 * Deals that name one of our orders but do not fit it: they would take its filled amount above its amount or above
 * the executed amount a final venue record gave, or they contradict it (another side or venue order id, a price beyond
 * its limit). They are not journalled, not booked and not shown to the strategy; the order is reconciled through its
 * history, and each held deal is then released (the records now cover it) or, once the order is final and they still
 * do not fit, rejected for good. That is how a fill reported twice under a new deal id is caught: the journal never
 * shows an overfill. Kept per order, oldest first, so a release takes them in the order they happened.
 */
export class HeldDeals {
  private readonly byOrder = new Map<string, Map<number, HeldDeal>>();

  /** Holds the deal; false when it is held already. */
  hold(deal: Deal, reason: string, now: number): boolean {
    let held = this.byOrder.get(deal.clientOrderId);
    if (held === undefined) {
      held = new Map();
      this.byOrder.set(deal.clientOrderId, held);
    }
    if (held.has(deal.id)) return false;
    held.set(deal.id, { deal, reason, since: now });
    return true;
  }

  has(clientOrderId: string): boolean {
    return this.byOrder.has(clientOrderId);
  }

  isHeld(deal: Deal): boolean {
    return this.byOrder.get(deal.clientOrderId)?.has(deal.id) === true;
  }

  /** The order's held deals, oldest first (time, then id). */
  of(clientOrderId: string): HeldDeal[] {
    const held = this.byOrder.get(clientOrderId);
    if (held === undefined) return [];
    return [...held.values()].sort((a, b) => a.deal.time - b.deal.time || a.deal.id - b.deal.id);
  }

  /** Takes the deal off hold (released into the journal, or rejected for good). */
  drop(deal: Deal): void {
    const held = this.byOrder.get(deal.clientOrderId);
    if (held === undefined) return;
    held.delete(deal.id);
    if (held.size === 0) this.byOrder.delete(deal.clientOrderId);
  }

  get size(): number {
    let n = 0;
    for (const held of this.byOrder.values()) n += held.size;
    return n;
  }
}
