import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/sim/http/faults.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/** Fault injection (issue 3 item 6): 5xx without acting, dropped answer after acting, latency; seeded. */
const order = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '20000' };

describe('fault injection over HTTP', () => {
  const sim = useSim({ flow: false });

  it('off by default', async () => {
    const s = await sim();
    for (let i = 0; i < 20; i++) expect((await publicGet(s.baseUrl, '/api/v4/public/ping')).status).toBe(200);
  });

  it('error5xx: 503 with a non-JSON body, and the venue did not act', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { error5xx: 1 } } } });
    const a = simAccount(s, false);
    const r = await signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, client_order_id: 'f-1' });
    expect(r.status).toBe(503);
    expect(r.json).toBeUndefined();
    expect(s.exchange.openOrders(a.name)).toEqual([]);
    // Other endpoints are unaffected.
    expect((await publicGet(s.baseUrl, '/api/v4/public/ping')).status).toBe(200);
  });

  it('dropAfterAccept: the socket closes without an answer, yet the order exists', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { dropAfterAccept: 1 } } } });
    const a = simAccount(s, false);
    await expect(signedPost(s.baseUrl, '/api/v4/order/new', a, { ...order, client_order_id: 'lost-answer' })).rejects.toThrow();
    expect(s.exchange.openOrders(a.name).map((o) => o.clientOrderId)).toEqual(['lost-answer']);
    // The client can reconcile through the open-orders endpoint (not faulted).
    const open = (await signedPost(s.baseUrl, '/api/v4/orders', a, { clientOrderId: 'lost-answer' })).json as Array<{ client_order_id: string }>;
    expect(open.map((o) => o.client_order_id)).toEqual(['lost-answer']);
    expect(s.stats.arrivals.find((x) => x.endpoint === 'orderNew')?.status).toBe(0);
  });

  it('a rejected order is answered even when drops are on (nothing was accepted)', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { dropAfterAccept: 1 } } } });
    const r = await signedPost(s.baseUrl, '/api/v4/order/new', simAccount(s, false), { ...order, amount: 'x' });
    expect(r.status).toBe(422);
  });

  it("'*' applies to every endpoint", async () => {
    const s = await sim({ faults: { endpoints: { '*': { error5xx: 1 } } } });
    expect((await publicGet(s.baseUrl, '/api/v4/public/ping')).status).toBe(503);
  });
});

describe('FaultInjector', () => {
  it('is deterministic for a seed and honours probabilities and latency bounds', () => {
    const config = { seed: 42, endpoints: { orderNew: { error5xx: 0.3, dropAfterAccept: 0.3, latencyMs: [10, 20] as const } } };
    const plans = (inj: FaultInjector) => Array.from({ length: 200 }, () => inj.plan('orderNew'));
    const [p1, p2] = [plans(new FaultInjector(config)), plans(new FaultInjector(config))];
    expect(p1).toEqual(p2);
    const fails = p1.filter((p) => p.fail5xx).length;
    expect(fails).toBeGreaterThan(30);
    expect(fails).toBeLessThan(90);
    expect(p1.some((p) => p.drop)).toBe(true);
    expect(p1.every((p) => !(p.drop && p.fail5xx))).toBe(true);
    expect(p1.every((p) => p.delayMs >= 10 && p.delayMs <= 20)).toBe(true);
    expect(new FaultInjector(config).plan('ping')).toEqual({ fail5xx: false, drop: false, delayMs: 0 });
  });

  it('rejects a probability outside [0, 1] with a precise message', () => {
    expect(() => new FaultInjector({ endpoints: { codes: { error5xx: 2 } } })).toThrow(
      'faults.endpoints.codes.error5xx must be a probability in [0, 1], got 2',
    );
  });
});
