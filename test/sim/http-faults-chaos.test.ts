import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { FaultInjector } from '../../src/sim/http/faults.js';
import { GARBAGE_KINDS, garbageAnswer } from '../../src/sim/http/garbage-answers.js';
import { MalformedResponseError, RateLimitedError, TimeoutError, VenueError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { waitUntil } from '../helpers/wait-until.js';

/** The chaos harness's fault kinds (issue 15): timeouts acted on late, 429 bursts, spikes, garbage answers; over real HTTP. */
const sim = useSim({ flow: false });
const clients: RestClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.close();
});

function client(s: Awaited<ReturnType<typeof sim>>, timeoutMs = 2000): RestClient {
  const a = simAccount(s, false);
  const c = new RestClient({
    baseUrl: s.baseUrl,
    apiKey: a.apiKey,
    apiSecret: a.apiSecret,
    timeoutMs,
    nonceWindow: true,
    retry: { limit: 0 },
    rateLimiter: false,
  });
  clients.push(c);
  return c;
}

const order = { market: 'BTC_USDT', side: 'buy' as const, amount: D('0.001'), price: D('20000') };

describe('chaos fault kinds over HTTP', () => {
  it('timeout: the request is held past the client deadline and acted on afterwards', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { timeout: 1, timeoutMs: 600 } } } });
    const c = client(s, 200);
    const error = await c.placeLimit({ ...order, clientOrderId: 'late-1' }).catch((e: unknown) => e);
    expect((error as VenueError).code).toBe('ERR_VENUE_OUTCOME_UNKNOWN');
    expect((error as VenueError).cause).toBeInstanceOf(TimeoutError);
    const accountId = s.exchange.accountByKey(simAccount(s, false).apiKey)!.id;
    expect(s.exchange.openOrders(accountId)).toHaveLength(0);
    await waitUntil('the venue to act on the held request', () => s.stats.arrivals.filter((a) => a.endpoint === 'orderNew').every((a) => a.status !== 0));
    expect(s.exchange.openOrders(accountId).map((o) => o.clientOrderId)).toEqual(['late-1']);
    expect(s.stats.faults.get('orderNew:timeout')).toBe(1);
  });

  it('a request held beyond the nonce window is refused by the venue, never acted on', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { timeout: 1, timeoutMs: 5600 } } } });
    const c = client(s, 200);
    await expect(c.placeLimit({ ...order, clientOrderId: 'too-late' })).rejects.toThrow();
    await waitUntil('the venue to answer the held request', () => s.stats.arrivals.filter((a) => a.endpoint === 'orderNew').every((a) => a.status !== 0), {
      timeoutMs: 9_000,
    });
    expect(s.stats.arrivals.filter((a) => a.endpoint === 'orderNew').map((a) => a.status)).toEqual([400]);
    const accountId = s.exchange.accountByKey(simAccount(s, false).apiKey)!.id;
    expect(s.exchange.openOrders(accountId)).toHaveLength(0);
  }, 10_000);

  it('burst429: every request in the burst is answered 429 without acting; the client sees RateLimitedError', async () => {
    const s = await sim({ faults: { endpoints: { orderNew: { burst429: 1, burstMs: 10_000 } } } });
    const c = client(s);
    for (let i = 0; i < 3; i++) await expect(c.placeLimit({ ...order, clientOrderId: `b-${i}` })).rejects.toBeInstanceOf(RateLimitedError);
    expect(s.stats.tooManyRequests).toBe(3);
    s.faults.setEnabled(false);
    await expect(c.placeLimit({ ...order, clientOrderId: 'b-after' })).resolves.toMatchObject({ clientOrderId: 'b-after' });
  });

  it.each(GARBAGE_KINDS.filter((k) => k !== 'drip'))('garbage %s: the client raises a typed MalformedResponseError', async (kind) => {
    const s = await sim({ faults: { endpoints: { tradeBalance: { garbage: 1, garbageKinds: [kind] } } } });
    const error = await client(s)
      .tradeBalance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(s.stats.faults.get(`tradeBalance:garbage:${kind}`)).toBe(1);
  });

  it('garbage drip: slower than the deadline is a TimeoutError; the body itself is the real one', async () => {
    const s = await sim({ faults: { endpoints: { tradeBalance: { garbage: 1, garbageKinds: ['drip'], dripMs: 1500 } } } });
    await expect(client(s, 300).tradeBalance()).rejects.toBeInstanceOf(TimeoutError);
    const fast = await sim({ faults: { endpoints: { tradeBalance: { garbage: 1, garbageKinds: ['drip'], dripMs: 50 } } } });
    expect((await client(fast).tradeBalance()).BTC?.available.toFixed()).toBe('10');
  });
});

describe('garbage answers', () => {
  it('every kind but drip is garbage for the answers the daemon reads (an empty list included)', () => {
    const random = () => 0.3;
    for (const real of [[], [{ price: '30000', amount: '1' }], { BTC: { available: '1', freeze: '0' } }]) {
      for (const kind of GARBAGE_KINDS.filter((k) => k !== 'drip')) {
        const answer = garbageAnswer(kind, real, random);
        expect(answer.text, `${kind} of ${JSON.stringify(real)}`).not.toBe(JSON.stringify(real));
      }
    }
  });
});

describe('FaultInjector (chaos kinds)', () => {
  it('adds no draw for a field left out: an existing config decides as before', () => {
    const config = { seed: 9, endpoints: { orderNew: { error5xx: 0.3, dropAfterAccept: 0.3 } } };
    const a = new FaultInjector(config);
    const b = new FaultInjector({ ...config, endpoints: { orderNew: { ...config.endpoints.orderNew, garbageKinds: ['html' as const] } } });
    for (let i = 0; i < 100; i++) expect(b.plan('orderNew')).toEqual(a.plan('orderNew'));
  });

  it('rejects an unknown garbage kind and a bad probability with the field path', () => {
    expect(() => new FaultInjector({ endpoints: { orders: { garbage: 1.5 } } })).toThrow(
      'faults.endpoints.orders.garbage must be a probability in [0, 1], got 1.5',
    );
    expect(() => new FaultInjector({ endpoints: { orders: { garbageKinds: ['xml' as never] } } })).toThrow("unknown kind 'xml'");
  });
});
