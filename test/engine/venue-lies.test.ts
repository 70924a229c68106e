import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';
import type { OwnOrder } from '../../src/strategy/context.js';
import { placeLimit } from '../../src/strategy/intents.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { FakeVenue } from './fake-venue.js';
import { market, strategyOf, virtualRig } from './virtual-rig.js';

/**
 * A venue that acts truthfully (FakeVenue's orders and deals are the truth) but answers wrongly in well-formed JSON,
 * one lie at a time: the engine must check what it is told before it journals or acts on it (#23).
 */
class LyingVenue extends FakeVenue {
  /** Rewrites the answer to order/new (the order is placed as asked). */
  rewritePlace: ((o: Order) => Order) | undefined;
  /** Client order ids the open-orders list and look-ups leave out, as a lagging replica would. */
  readonly hidden = new Set<string>();
  /** Rewrites each open-orders record. */
  rewriteOpen: ((o: Order) => Order) | undefined;
  /** Deals listed beside (or instead of) the true ones. */
  extraDeals: Deal[] = [];
  /** Replaces a true deal's record in the listing, by id. */
  readonly dealOverride = new Map<number, Deal>();

  override async placeLimit(r: Parameters<TradingApi['placeLimit']>[0]): Promise<Order> {
    const o = await super.placeLimit(r);
    return this.rewritePlace ? this.rewritePlace(o) : o;
  }
  override async openOrders(q: Parameters<TradingApi['openOrders']>[0] = {}): Promise<Order[]> {
    const all = (await super.openOrders({ ...q, limit: 1000, offset: 0 })).filter((o) => !this.hidden.has(o.clientOrderId));
    return (this.rewriteOpen ? all.map(this.rewriteOpen) : all).slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 50));
  }
  override async deals(q: Parameters<TradingApi['deals']>[0] = {}): Promise<Deal[]> {
    const listed = [...this.dealList.map((d) => this.dealOverride.get(d.id) ?? d), ...this.extraDeals]
      .filter((d) => q.clientOrderId === undefined || d.clientOrderId === q.clientOrderId)
      .sort((a, b) => b.time - a.time || b.id - a.id);
    return listed.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
  }
}

/** One quote of 0.02 at 99, placed again whenever the strategy has no live order (as a market maker would). */
const quoter = strategyOf((_ctx, orders) => (orders.length > 0 ? [] : [placeLimit({ side: 'buy', price: D('99'), amount: D('0.02') })]));

function fillsOf(records: readonly JournalRecord[], clientOrderId: string): string[] {
  return records.flatMap((r) => (r.type === 'fill' && r.deal.clientOrderId === clientOrderId ? [r.deal.amount] : []));
}

function dealtOf(records: readonly JournalRecord[], clientOrderId: string) {
  return fillsOf(records, clientOrderId).reduce((s, a) => s.plus(a), D(0));
}

/** The quoter running against a lying venue, its order filled in full (the true deal), ready for a lie about it. */
async function quotedThenFilled() {
  const venue = new LyingVenue(market, '100', '101');
  const rig = virtualRig(venue, [{ id: 'p', definition: quoter, params: {}, market: market.name }]);
  await rig.runtime.start();
  await rig.advance(500);
  const id = [...venue.orders.keys()][0]!;
  const deal = venue.fill(id, D('0.02'), rig.scheduler.now() / 1000);
  return { venue, rig, id, deal };
}

describe('a venue that lies in well-formed JSON (engine on virtual time)', () => {
  it('an order answer contradicting the request is no answer: unknown, reconciled to the truth, nothing of it journalled', async () => {
    const venue = new LyingVenue(market, '100', '101');
    venue.rewritePlace = (o) => ({ ...o, market: 'ETH_USDT', amount: o.amount.times(10), left: o.left.times(10), price: D(1) });
    const rig = virtualRig(venue, [{ id: 'p', definition: quoter, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(1000);
    venue.rewritePlace = undefined;
    await rig.advance(2000);
    const records = rig.journal.records();
    const outcomes = records.filter((r) => r.type === 'outcome');
    // the journal never records the answer's figures: no left of 0.2 for a 0.02 order
    expect(outcomes.every((r) => r.type !== 'outcome' || r.left === undefined || D(r.left).lte('0.02'))).toBe(true);
    expect(records.some((r) => r.type === 'anomaly' && r.kind === 'implausible-answer')).toBe(true);
    const first = outcomes[0]!;
    expect(first.type === 'outcome' && first.state).toBe('unknown');
    // reconciled to the order as it rests, never resubmitted: one order on the venue, tracked open
    expect(venue.orders.size).toBe(1);
    expect(venue.calls.filter((c) => c.startsWith('place'))).toHaveLength(1);
    const id = [...venue.orders.keys()][0]!;
    expect(rig.runtime.status().markets[0]!.strategies[0]!.liveOrders).toBe(1);
    expect(rig.events.find((e) => e.type === 'reconciled' && e.clientOrderId === id)).toMatchObject({ state: 'open' });
    await rig.runtime.stop();
  });

  it('open-orders records with a negative left or price are not applied', async () => {
    const venue = new LyingVenue(market, '100', '101');
    const rig = virtualRig(venue, [{ id: 'p', definition: quoter, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(1000);
    venue.rewriteOpen = (o) => ({ ...o, left: o.left.neg() });
    await rig.advance(3000);
    const records = rig.journal.records();
    expect(records.some((r) => r.type === 'outcome' && r.left !== undefined && D(r.left).isNegative())).toBe(false);
    // reported once, not once per poll
    expect(records.filter((r) => r.type === 'anomaly' && r.kind === 'implausible-answer')).toHaveLength(1);
    venue.rewriteOpen = undefined;
    await rig.runtime.stop();
  });

  it('the same fill reported again under a new deal id is held, checked against the order history and rejected: no overfill', async () => {
    const { venue, rig, id, deal } = await quotedThenFilled();
    venue.extraDeals.push({ ...deal, id: 9_000 });
    await rig.advance(3000);
    const records = rig.journal.records();
    expect(fillsOf(records, id)).toEqual(['0.02']);
    expect(records.filter((r) => r.type === 'fill').map((r) => (r.type === 'fill' ? r.deal.id : 0))).toEqual([deal.id]);
    expect(records.some((r) => r.type === 'anomaly' && r.kind === 'deal-rejected' && r.dealId === 9_000)).toBe(true);
    const summary = await rig.runtime.stop();
    expect(summary.strategies[0]!.fills).toBe(1);
  });

  it('a duplicate that would not overfill a still-open order is caught once the venue reports how much executed', async () => {
    const venue = new LyingVenue(market, '100', '101');
    const half = strategyOf((_ctx, orders) => (orders.length > 0 ? [] : [placeLimit({ side: 'buy', price: D('99'), amount: D('0.04') })]));
    const rig = virtualRig(venue, [{ id: 'p', definition: half, params: {}, market: market.name }]);
    await rig.runtime.start();
    await rig.advance(500);
    const id = [...venue.orders.keys()][0]!;
    const deal = venue.fill(id, D('0.02'), rig.scheduler.now() / 1000);
    venue.extraDeals.push({ ...deal, id: 9_001 });
    await rig.advance(2000);
    // the order is cancelled: the venue's final record says 0.02 executed, the journal must agree
    await rig.runtime.stop();
    const records = rig.journal.records();
    expect(dealtOf(records, id).lte('0.02')).toBe(true);
  });

  it('a deal first listed with a negative amount is never journalled; the true record under the same id is', async () => {
    const { venue, rig, id, deal } = await quotedThenFilled();
    venue.dealOverride.set(deal.id, { ...deal, amount: deal.amount.neg() });
    await rig.advance(1500);
    expect(fillsOf(rig.journal.records(), id)).toEqual([]);
    expect(rig.journal.records().filter((r) => r.type === 'anomaly' && r.kind === 'malformed-deal')).toHaveLength(1);
    venue.dealOverride.clear();
    await rig.advance(1500);
    expect(fillsOf(rig.journal.records(), id)).toEqual(['0.02']);
    await rig.runtime.stop();
  });

  it('a duplicate under a new id while the true record is listed corrupted: the duplicate waits, the true record is journalled', async () => {
    const { venue, rig, id, deal } = await quotedThenFilled();
    venue.dealOverride.set(deal.id, { ...deal, price: deal.price.neg() });
    venue.extraDeals.push({ ...deal, id: 9_002 });
    await rig.advance(1500);
    expect(fillsOf(rig.journal.records(), id)).toEqual([]);
    venue.dealOverride.clear();
    await rig.advance(3000);
    const fills = rig.journal.records().filter((r) => r.type === 'fill');
    expect(fills.map((r) => (r.type === 'fill' ? r.deal.id : 0))).toEqual([deal.id]);
    expect(rig.journal.records().some((r) => r.type === 'anomaly' && r.kind === 'deal-rejected' && r.dealId === 9_002)).toBe(true);
    await rig.runtime.stop();
  });

  it('property (seeded): however a fill and its twin are listed, the journal ends with the true deals of the order and only them', async () => {
    // A lying venue lists a twin only beside its original (as the simulated venue's lies do), and may list the
    // original corrupted for a while, hide the order from the open-orders list for a while, and fill the order again.
    // Once the lies end, the truth can be known: the journal must hold exactly the true deals, each once.
    const scenario = fc.record({
      whole: fc.boolean(),
      twinFirst: fc.boolean(),
      corruptMs: fc.constantFrom(0, 300, 1500),
      corruptHow: fc.constantFrom('amount', 'price', 'fee'),
      hideMs: fc.constantFrom(0, 700, 4000),
      second: fc.boolean(),
      twinSecond: fc.boolean(),
      secondAtMs: fc.constantFrom(0, 200, 1000, 2500),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const venue = new LyingVenue(market, '100', '101');
        const once = strategyOf((_ctx, orders) =>
          orders.length > 0 || venue.calls.some((c) => c.startsWith('place')) ? [] : [placeLimit({ side: 'buy', price: D('99'), amount: D('0.04') })],
        );
        const rig = virtualRig(venue, [{ id: 'p', definition: once, params: {}, market: market.name }]);
        await rig.runtime.start();
        await rig.advance(500);
        const id = [...venue.orders.keys()][0]!;
        const t0 = rig.scheduler.now();
        const truth: number[] = [];
        const first = venue.fill(id, D(s.whole ? '0.04' : '0.02'), t0 / 1000);
        truth.push(first.id);
        if (s.twinFirst) venue.extraDeals.push({ ...first, id: 9_000 });
        if (s.corruptMs > 0) {
          const bad =
            s.corruptHow === 'amount' ? { amount: first.amount.neg() } : s.corruptHow === 'price' ? { price: first.price.neg() } : { fee: first.fee.neg() };
          venue.dealOverride.set(first.id, { ...first, ...bad });
        }
        if (s.hideMs > 0) venue.hidden.add(id);
        const steps: Array<{ at: number; run: () => void }> = [
          { at: s.corruptMs, run: () => venue.dealOverride.clear() },
          { at: s.hideMs, run: () => venue.hidden.clear() },
        ];
        if (s.second && !s.whole) {
          steps.push({
            at: s.secondAtMs,
            run: () => {
              if (!venue.orders.has(id)) return; // cancelled meanwhile: no second fill
              const second = venue.fill(id, D('0.02'), rig.scheduler.now() / 1000);
              truth.push(second.id);
              if (s.twinSecond) venue.extraDeals.push({ ...second, id: 9_001 });
            },
          });
        }
        steps.sort((a, b) => a.at - b.at);
        for (const step of steps) {
          const wait = t0 + step.at - rig.scheduler.now();
          if (wait > 0) await rig.advance(wait);
          step.run();
        }
        await rig.advance(8_000);
        await rig.runtime.stop();
        const journalled = rig.journal.records().flatMap((r) => (r.type === 'fill' && r.deal.clientOrderId === id ? [r.deal.id] : []));
        expect(journalled.sort((a, b) => a - b)).toEqual(truth.sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('orders hidden from the open-orders list are not taken as gone: unknown (counted in full), settled by a cancel of ours; never more live than the limit', async () => {
    const venue = new LyingVenue(market, '100', '101');
    let maxLive = 0;
    let seen: readonly OwnOrder[] = [];
    const ladder = strategyOf((_ctx, orders) => {
      seen = orders;
      const n = orders.length;
      return n >= 2 ? [] : [placeLimit({ side: 'buy', price: D(97 + n), amount: D('0.02') })];
    });
    const rig = virtualRig(venue, [{ id: 'p', definition: ladder, params: {}, market: market.name, risk: { maxOpenOrders: 2 } }]);
    await rig.runtime.start();
    for (let i = 0; i < 40; i++) {
      // every order is hidden from its first listing on, for the whole run
      for (const o of venue.orders.keys()) venue.hidden.add(o);
      await rig.advance(250);
      maxLive = Math.max(maxLive, venue.orders.size);
    }
    // the strategy never saw room for a third order: hidden orders stayed live to it until a cancel of ours settled them
    expect(maxLive).toBeLessThanOrEqual(2 + 1);
    expect(seen.length).toBeLessThanOrEqual(2);
    const records = rig.journal.records();
    // each hidden order that left the tracked set was cancelled by us and confirmed by the venue's answer
    const cancelled = records.filter((r) => r.type === 'outcome' && r.state === 'canceled').map((r) => (r.type === 'outcome' ? r.clientOrderId : ''));
    expect(cancelled.length).toBeGreaterThan(0);
    for (const id of cancelled) expect(venue.finished.some((o) => o.clientOrderId === id && o.status === 'CANCELED')).toBe(true);
    await rig.runtime.stop();
    // nothing left resting that the journal does not know as live
    expect(venue.orders.size).toBe(0);
  });
});
