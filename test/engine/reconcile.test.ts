import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { Executor } from '../../src/engine/executor.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import { OrderTracker } from '../../src/engine/order-tracker.js';
import { Reconciler } from '../../src/engine/reconcile.js';
import type { GatedOrder } from '../../src/engine/gate.js';
import type { StartSimOptions } from '../../src/sim/start-sim.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { simAccount, useSim } from '../helpers/with-sim.js';

const newSim = useSim();
const clients: RestClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

/** The engine's submit path (tracker + journal + executor + reconciler) against a sim with faults on order/new. */
async function rig(options: StartSimOptions, o: { timeoutMs?: number; notPlacedAfterMs?: number } = {}) {
  const sim = await newSim(options);
  const account = simAccount(sim, false);
  const api = new RestClient({
    baseUrl: sim.baseUrl,
    apiKey: account.apiKey,
    apiSecret: account.apiSecret,
    timeoutMs: o.timeoutMs ?? 3000,
    retry: { limit: 0 },
    nonceWindow: true,
  });
  clients.push(api);
  const events: EngineEvent[] = [];
  const journal = new MemoryJournal();
  const tracker = new OrderTracker({ now: () => Date.now() });
  const deals: number[] = [];
  const reconciler = new Reconciler({
    api,
    tracker,
    journal,
    scheduler: asyncScheduler,
    now: () => Date.now(),
    emit: (e) => events.push(e),
    applyDeal: (d) => {
      if (tracker.applyDeal(d).fresh) deals.push(d.id);
    },
    notPlacedAfterMs: o.notPlacedAfterMs ?? 300,
  });
  const executor = new Executor({ api, tracker, journal, reconciler, now: () => Date.now(), emit: (e) => events.push(e) });
  const submit = async (o: Omit<GatedOrder, 'market' | 'kind'>) => {
    const order: GatedOrder = { kind: 'limit', market: 'BTC_USDT', ...o };
    tracker.track({ clientOrderId: o.clientOrderId, strategyId: 's', market: 'BTC_USDT', side: o.side, kind: 'limit', price: o.price, amount: o.amount });
    executor.submit('s', order);
    await executor.drain();
    // the reconcile started by the executor runs in the background; wait for its event
    for (let i = 0; i < 500 && !events.some((e) => e.type === 'reconciled' && e.clientOrderId === o.clientOrderId); i++)
      await new Promise((r) => setTimeout(r, 20));
  };
  const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
  return { sim, tracker, journal, events, submit, deals, accountId, executor, reconciler, api };
}

describe('unknown outcome → reconcile (sim drops the connection after accepting)', () => {
  it('an order the venue accepted is found open by client order id, never resubmitted', async () => {
    const r = await rig({ flow: false, faults: { endpoints: { orderNew: { dropAfterAccept: 1 } } } });
    await r.submit({ clientOrderId: 'rc-a-1', side: 'buy', price: D('20000'), amount: D('0.001') });
    expect(r.events.map((e) => e.type)).toEqual(['submitted', 'unknown', 'reconciled']);
    const venue = r.sim.exchange.openOrders(r.accountId);
    expect(venue.map((o) => o.clientOrderId)).toEqual(['rc-a-1']);
    expect(r.tracker.get('rc-a-1')).toMatchObject({ state: 'open', orderId: venue[0]!.orderId });
    // journal: the submission precedes any outcome, the unknown and the reconciled outcome are both recorded
    expect(r.journal.records().map((x) => (x.type === 'outcome' ? `outcome:${x.state}` : x.type))).toEqual(['submit', 'outcome:unknown', 'outcome:open']);
    expect(r.sim.stats.arrivalTimes('orderNew')).toHaveLength(1);
  });

  it('an order that filled at once is settled from its deals', async () => {
    const r = await rig({ faults: { endpoints: { orderNew: { dropAfterAccept: 1 } } } });
    for (let i = 0; i < 200 && r.sim.exchange.book('BTC_USDT').asks.length === 0; i++) await new Promise((res) => setTimeout(res, 25));
    const ask = r.sim.exchange.book('BTC_USDT').asks[0]!;
    await r.submit({ clientOrderId: 'rc-b-1', side: 'buy', price: ask.price.plus(100), amount: D('0.001') });
    expect(r.tracker.get('rc-b-1')?.state).toBe('filled');
    const venueDeals = r.sim.exchange.deals(r.accountId).filter((d) => d.clientOrderId === 'rc-b-1');
    expect(venueDeals.length).toBeGreaterThan(0);
    expect(r.deals.sort()).toEqual(venueDeals.map((d) => d.id).sort());
    expect(r.tracker.get('rc-b-1')?.dealt.toFixed()).toBe('0.001');
  });

  it('an order the venue never acted on (503 before acting) is settled as rejected', async () => {
    const r = await rig({ flow: false, faults: { endpoints: { orderNew: { error5xx: 1 } } } });
    await r.submit({ clientOrderId: 'rc-c-1', side: 'buy', price: D('20000'), amount: D('0.001') });
    expect(r.sim.exchange.openOrders(r.accountId)).toHaveLength(0);
    expect(r.tracker.get('rc-c-1')?.state).toBe('rejected');
  });

  it('an order the venue acts on after the client gave up (held past the deadline) is found, not settled as never placed (chaos finding)', async () => {
    // the first lookup comes before the venue acts: "not found" there must not count as "never placed"
    const r = await rig({ flow: false, faults: { endpoints: { orderNew: { timeout: 1, timeoutMs: 1200 } } } }, { timeoutMs: 300, notPlacedAfterMs: 2500 });
    await r.submit({ clientOrderId: 'rc-d-1', side: 'buy', price: D('20000'), amount: D('0.001') });
    const venue = r.sim.exchange.openOrders(r.accountId);
    expect(venue.map((o) => o.clientOrderId)).toEqual(['rc-d-1']);
    expect(r.tracker.get('rc-d-1')).toMatchObject({ state: 'open', orderId: venue[0]!.orderId });
    expect(r.journal.records().map((x) => (x.type === 'outcome' ? `outcome:${x.state}` : x.type))).toEqual(['submit', 'outcome:unknown', 'outcome:open']);
  });

  it('with nothing on the venue, an unknown order stays unknown (live) for the whole not-placed window, then is settled as rejected', async () => {
    const r = await rig({ flow: false, faults: { endpoints: { orderNew: { error5xx: 1 } } } }, { notPlacedAfterMs: 1500 });
    const started = Date.now();
    await r.submit({ clientOrderId: 'rc-e-1', side: 'buy', price: D('20000'), amount: D('0.001') });
    expect(r.tracker.get('rc-e-1')?.state).toBe('rejected');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('an order placed and cancelled behind garbage answers is settled as cancelled, not as never placed (chaos finding)', async () => {
    const garbage = { garbage: 1, garbageKinds: ['empty' as const] };
    // the look-ups are slow: by the time one arrives, the cancel has removed the order (what the venue's records show)
    const faults = { endpoints: { orderNew: garbage, orderCancel: garbage, orders: { latencyMs: 300 } } };
    const r = await rig({ flow: false, faults }, { notPlacedAfterMs: 1000 });
    const id = 'rc-f-1';
    r.tracker.track({ clientOrderId: id, strategyId: 's', market: 'BTC_USDT', side: 'buy', kind: 'limit', price: D('20000'), amount: D('0.001') });
    r.executor.submit('s', { kind: 'limit', market: 'BTC_USDT', side: 'buy', price: D('20000'), amount: D('0.001'), clientOrderId: id });
    // the strategy cancels it while the order's answer is on its way: the venue cancels it, the answer is garbage again
    expect(r.tracker.requestCancel(id)).toBe(true);
    r.executor.cancel('s', id);
    await r.executor.drain();
    // absence is not proof: the order stays unknown until a positive answer. The venue's answers heal, and the
    // reconcile's own cancel ("not found": it does not rest) settles it; our earlier cancel is what removed it
    expect(r.tracker.get(id)?.state).toBe('unknown');
    r.sim.faults.setEnabled(false);
    for (let i = 0; i < 250 && r.tracker.get(id)?.state === 'unknown'; i++) await new Promise((res) => setTimeout(res, 20));
    const venue = r.sim.exchange.finishedOrders(r.accountId).filter((o) => o.clientOrderId === id);
    expect(venue.map((o) => o.status)).toEqual(['CANCELED']);
    expect(r.tracker.get(id)?.state).toBe('canceled');
    expect(
      r.journal
        .records()
        .filter((x) => x.type === 'outcome')
        .map((x) => (x.type === 'outcome' ? x.state : '')),
    ).toEqual(['unknown', 'canceled']);
  });

  it('a look-up that began before the order was first seen on the venue does not settle it as gone (chaos finding)', async () => {
    // the order reaches the venue late (held 1.2 s, the client gives up at 1 s); the deals look-up is slow (0.7 s), so
    // the order is seen open (as the open-orders poll would see it) while the reconcile's look-up, which found it
    // absent, is still running
    const faults = { endpoints: { orderNew: { timeout: 1, timeoutMs: 1200 }, executedHistory: { latencyMs: 700 } } };
    const r = await rig({ flow: false, faults }, { timeoutMs: 1000, notPlacedAfterMs: 5000 });
    const id = 'rc-g-1';
    r.tracker.track({ clientOrderId: id, strategyId: 's', market: 'BTC_USDT', side: 'buy', kind: 'limit', price: D('20000'), amount: D('0.001') });
    r.executor.submit('s', { kind: 'limit', market: 'BTC_USDT', side: 'buy', price: D('20000'), amount: D('0.001'), clientOrderId: id });
    await r.executor.drain();
    expect(r.tracker.get(id)?.state).toBe('unknown');
    for (let i = 0; i < 100 && r.sim.exchange.openOrders(r.accountId).length === 0; i++) await new Promise((res) => setTimeout(res, 10));
    const onVenue = r.sim.exchange.openOrders(r.accountId)[0]!;
    expect(r.tracker.applyVenueOrder(id, onVenue)).toBe(true);
    for (let i = 0; i < 200 && !r.events.some((e) => e.type === 'reconciled' && e.clientOrderId === id); i++) await new Promise((res) => setTimeout(res, 20));
    expect(r.events.find((e) => e.type === 'reconciled' && e.clientOrderId === id)).toMatchObject({ state: 'open' });
    expect(r.tracker.get(id)?.state).toBe('open');
  });
});

describe('reconciler stop', () => {
  it('a look-up that fails after stop() schedules no retry (the client is closed next; a retry would keep the process alive)', async () => {
    const r = await rig({ flow: false });
    r.tracker.track({ clientOrderId: 'rc-stop-1', strategyId: 's', market: 'BTC_USDT', side: 'buy', kind: 'limit', price: D('20000'), amount: D('0.001') });
    r.reconciler.stop();
    r.api.close();
    await r.reconciler.reconcile('rc-stop-1');
    // it failed (the client is closed) and said so once; nothing is left scheduled or running
    expect(r.events.filter((e) => e.type === 'error').map((e) => (e as { code: string }).code)).toEqual(['ERR_LIMITER_CLOSED']);
    expect(r.reconciler.pending).toBe(0);
    // a direct later() after stop schedules nothing either
    r.reconciler.later('rc-stop-1', 10);
    expect(r.reconciler.pending).toBe(0);
  });
});
