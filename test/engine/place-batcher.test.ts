import { asyncScheduler } from 'rxjs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { Executor } from '../../src/engine/executor.js';
import type { GatedOrder } from '../../src/engine/gate.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { Reconciler } from '../../src/engine/reconcile.js';
import type { AccessEntry } from '../../src/sim/http/server.js';
import type { StartSimOptions } from '../../src/sim/start-sim.js';
import type { BulkPlaceResult } from '../../src/venue/bulk-records.js';
import { BulkOutcomeUnknownError, InnerValidationError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { PlaceLimitRequest, TradingApi } from '../../src/venue/trading-api.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { restingOrder } from './fake-venue.js';

/** The executor's submit path with bulk batching on: tracker + journal + executor + reconciler. */
function engine(api: TradingApi) {
  const events: EngineEvent[] = [];
  const journal = new MemoryJournal();
  const tracker = new OrderTracker({ now: () => Date.now() });
  // a short not-placed window: these tests are about batching; the window has its own tests (reconcile.test.ts)
  const reconciler = new Reconciler({
    api,
    tracker,
    journal,
    scheduler: asyncScheduler,
    now: () => Date.now(),
    emit: (e) => events.push(e),
    applyDeal: (d) => tracker.applyDeal(d),
    notPlacedAfterMs: 50,
  });
  const executor = new Executor({ api, tracker, journal, reconciler, now: () => Date.now(), emit: (e) => events.push(e), batchPlaces: true });
  const place = (o: { id: string; price: string; amount?: string; side?: 'buy' | 'sell' }): void => {
    const order: GatedOrder = {
      kind: 'limit',
      market: 'BTC_USDT',
      side: o.side ?? 'buy',
      price: D(o.price),
      amount: D(o.amount ?? '0.01'),
      clientOrderId: o.id,
    };
    tracker.track({ clientOrderId: o.id, strategyId: 's', market: 'BTC_USDT', side: order.side, kind: 'limit', price: order.price, amount: order.amount });
    executor.submit('s', order);
  };
  const settled = async (ids: readonly string[]): Promise<void> => {
    await executor.drain();
    for (let i = 0; i < 200 && ids.some((id) => ['pending', 'unknown'].includes(tracker.get(id)?.state ?? '')); i++)
      await new Promise((r) => setTimeout(r, 10));
  };
  return { events, journal, tracker, executor, place, settled };
}

/** Per order: exactly one `submit` record, written before its request, and outcomes only after it. */
function journalPerOrder(records: readonly JournalRecord[], ids: readonly string[]): void {
  for (const id of ids) {
    const mine = records.filter((r) => 'clientOrderId' in r && r.clientOrderId === id);
    expect(
      mine.filter((r) => r.type === 'submit'),
      id,
    ).toHaveLength(1);
    expect(mine[0]?.type, id).toBe('submit');
    expect(mine.filter((r) => r.type === 'outcome').length, id).toBeGreaterThanOrEqual(1);
  }
}

describe('executor with bulk batching, against the sim over HTTP', () => {
  const newSim = useSim({ flow: false });
  const clients: RestClient[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });

  async function rig(options: StartSimOptions = {}) {
    const log: AccessEntry[] = [];
    const sim = await newSim({ ...options, onRequest: (e) => log.push(e) });
    const account = simAccount(sim, false);
    const api = new RestClient({ baseUrl: sim.baseUrl, apiKey: account.apiKey, apiSecret: account.apiSecret, timeoutMs: 3000, retry: { limit: 0 } });
    clients.push(api);
    return { sim, log, accountId: sim.exchange.accountByKey(account.apiKey)!.id, ...engine(api) };
  }

  it('places emitted together go in ONE bulk request; each order open or rejected with the venue code, journalled one by one', async () => {
    const r = await rig();
    const ids = ['x-1', 'x-2', 'x-3', 'x-4'];
    r.place({ id: 'x-1', price: '29000' });
    r.place({ id: 'x-2', price: '29000', amount: '0.0000001' }); // below the minimum: 32
    r.place({ id: 'x-3', price: '28000', amount: '1000' }); // more than the balance: 10
    r.place({ id: 'x-4', price: '31000', side: 'sell' });
    await r.settled(ids);
    expect(r.log.map((e) => e.endpoint)).toEqual(['orderBulk']);
    expect(ids.map((id) => r.tracker.get(id)?.state)).toEqual(['open', 'rejected', 'rejected', 'open']);
    const rejected = r.events.filter((e) => e.type === 'rejected');
    expect(rejected.map((e) => [e.clientOrderId, e.venueCode])).toEqual([
      ['x-2', 32],
      ['x-3', 10],
    ]);
    expect(
      r.sim.exchange
        .openOrders(r.accountId)
        .map((o) => o.clientOrderId)
        .sort(),
    ).toEqual(['x-1', 'x-4']);
    expect(r.tracker.get('x-1')?.orderId).toBe(r.sim.exchange.openOrders(r.accountId).find((o) => o.clientOrderId === 'x-1')?.orderId);
    journalPerOrder(r.journal.records(), ids);
    // every submit precedes the first outcome: all were journalled before the one request was sent
    const types = r.journal.records().map((x) => x.type);
    expect(types.slice(0, 4)).toEqual(['submit', 'submit', 'submit', 'submit']);
  });

  it('a cancel emitted between places splits the batch, so requests keep the emitted order; a lone place goes through order/new', async () => {
    const r = await rig();
    r.place({ id: 'y-0', price: '27000' });
    await r.settled(['y-0']);
    r.log.length = 0;
    r.place({ id: 'y-1', price: '29000' });
    r.place({ id: 'y-2', price: '29001' });
    r.tracker.requestCancel('y-0');
    r.executor.cancel('s', 'y-0');
    r.place({ id: 'y-3', price: '29002' });
    await r.settled(['y-1', 'y-2', 'y-3']);
    expect(r.log.map((e) => e.endpoint)).toEqual(['orderBulk', 'orderCancel', 'orderNew']);
    expect(['y-0', 'y-1', 'y-2', 'y-3'].map((id) => r.tracker.get(id)?.state)).toEqual(['canceled', 'open', 'open', 'open']);
  });

  it('41 places: bulk requests of 20, 20 and one order/new', async () => {
    const r = await rig();
    const ids = Array.from({ length: 41 }, (_, i) => `z-${i}`);
    for (const [i, id] of ids.entries()) r.place({ id, price: String(20000 + i), amount: '0.001' });
    await r.settled(ids);
    expect(r.log.map((e) => e.endpoint)).toEqual(['orderBulk', 'orderBulk', 'orderNew']);
    expect(ids.every((id) => r.tracker.get(id)?.state === 'open')).toBe(true);
  });

  it.each([
    ['dropped after the venue acted', { dropAfterAccept: 1 }, 'open'],
    ['503 before acting', { error5xx: 1 }, 'rejected'],
  ] as const)('bulk outcome unknown (%s): every order unknown, reconciled by client id, never resubmitted', async (_name, fault, final) => {
    const r = await rig({ faults: { seed: 2, endpoints: { orderBulk: fault } } });
    const ids = ['u-1', 'u-2', 'u-3'];
    for (const [i, id] of ids.entries()) r.place({ id, price: String(29000 - i) });
    await r.settled(ids);
    expect(r.events.filter((e) => e.type === 'unknown').map((e) => e.clientOrderId)).toEqual(ids);
    expect(ids.map((id) => r.tracker.get(id)?.state)).toEqual([final, final, final]);
    const sends = r.log.filter((e) => e.endpoint === 'orderBulk' || e.endpoint === 'orderNew');
    expect(sends.map((e) => e.endpoint)).toEqual(['orderBulk']);
    expect(r.sim.exchange.openOrders(r.accountId)).toHaveLength(final === 'open' ? 3 : 0);
    journalPerOrder(r.journal.records(), ids);
  });
});

/**
 * A scripted venue (a double of our own TradingApi): each bulk item's fate is given by the test; `truth`
 * records what really rests on the venue, which is what reconciling must find.
 */
type Fate = 'placed' | 'rejected' | 'unknown-placed' | 'unknown-absent';
class ScriptedVenue implements Pick<TradingApi, 'openOrders' | 'deals' | 'placeLimit' | 'placeLimitBulk' | 'cancel'> {
  readonly truth = new Map<string, Order>();
  readonly sends: string[][] = [];
  private id = 1;
  constructor(
    private readonly fates: Map<string, Fate>,
    private readonly wholeRequestFails: boolean,
  ) {}

  private rest(r: PlaceLimitRequest): Order {
    const o = restingOrder(this.id++, r);
    this.truth.set(o.clientOrderId, o);
    return o;
  }
  async placeLimit(r: PlaceLimitRequest): Promise<Order> {
    this.sends.push([r.clientOrderId ?? '']);
    return this.rest(r);
  }
  async placeLimitBulk(requests: readonly PlaceLimitRequest[]): Promise<BulkPlaceResult[]> {
    const ids = requests.map((r) => r.clientOrderId ?? '');
    this.sends.push(ids);
    const results = requests.map((r): BulkPlaceResult => {
      const fate = this.fates.get(r.clientOrderId ?? '')!;
      if (fate === 'placed') return { status: 'placed', order: this.rest(r) };
      if (fate === 'rejected') return { status: 'rejected', error: new InnerValidationError('x', { endpoint: 'bulk', venueCode: 10, status: 400 }) };
      if (fate === 'unknown-placed') this.rest(r);
      return { status: 'unknown', reason: 'no item' };
    });
    if (this.wholeRequestFails) {
      throw new BulkOutcomeUnknownError('dropped', ids, { endpoint: 'bulk' });
    }
    return results;
  }
  async openOrders(q: { clientOrderId?: string } = {}): Promise<Order[]> {
    return [...this.truth.values()].filter((o) => q.clientOrderId === undefined || o.clientOrderId === q.clientOrderId);
  }
  async deals() {
    return [];
  }
  /** Reconcile's probe of an order it cannot find: "not found" unless it rests. */
  async cancel(q: { clientOrderId?: string; orderId?: number }): Promise<Order> {
    const o = [...this.truth.values()].find((x) => x.clientOrderId === q.clientOrderId || x.orderId === q.orderId);
    if (o === undefined) throw new InnerValidationError('Inner validation failed', { endpoint: 'cancel', venueCode: 2, status: 400 });
    this.truth.delete(o.clientOrderId);
    return { ...o, status: 'CANCELED' };
  }
}

describe('bulk results map into the tracker exactly (property)', () => {
  it('placed → open, rejected → rejected (venue code), in doubt → reconciled to what the venue holds; each order sent once, journalled once', async () => {
    const fate = fc.constantFrom<Fate>('placed', 'rejected', 'unknown-placed', 'unknown-absent');
    await fc.assert(
      fc.asyncProperty(fc.array(fate, { minLength: 2, maxLength: 45 }), fc.boolean(), async (fates, wholeFails) => {
        const ids = fates.map((_, i) => `p-${i}`);
        const venue = new ScriptedVenue(new Map(ids.map((id, i) => [id, fates[i]!])), wholeFails);
        const r = engine(venue as unknown as TradingApi);
        for (const [i, id] of ids.entries()) r.place({ id, price: String(1000 + i) });
        await r.settled(ids);
        // each order went out exactly once, in emitted order
        expect(venue.sends.flat()).toEqual(ids);
        for (const [i, id] of ids.entries()) {
          const f = fates[i]!;
          const lonely = venue.sends.find((s) => s.includes(id))!.length === 1; // a chunk of one goes through order/new
          const onVenue = venue.truth.has(id);
          const expected = lonely ? 'open' : wholeFails ? (onVenue ? 'open' : 'rejected') : f === 'rejected' ? 'rejected' : onVenue ? 'open' : 'rejected';
          expect(r.tracker.get(id)?.state, `${id} ${f} whole=${wholeFails}`).toBe(expected);
          if (!lonely && !wholeFails && f === 'rejected') {
            expect(r.events.find((e) => e.type === 'rejected' && e.clientOrderId === id)).toMatchObject({ venueCode: 10 });
          }
        }
        journalPerOrder(r.journal.records(), ids);
      }),
      { numRuns: 60 },
    );
  });
});
