import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../src/venue/wire.js';
import { SimStats } from '../../src/sim/http/sim-stats.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/**
 * Rate limits per client in sliding 10 s windows → 429 with a plain-text body. The first test uses
 * the venue's real order-book limit (600 / 10 s); the others lower one limit through `rateLimits`
 * (a test-only override) so that a 429 is certain however slow the machine is.
 */
describe('rate limits', () => {
  const sim = useSim({ flow: false });

  it('order book at the real 600 / 10 s: every answer agrees with the sliding-window model of the arrival log', async () => {
    const s = await sim();
    const { limit, windowMs } = RATE_LIMITS.orderbook;
    // Batches of 50 concurrent requests. On a loaded machine the run may outlast one window, so the
    // check replays the server's own arrival log instead of assuming how many fell in a window.
    for (let sent = 0; sent < limit + 20; sent += 50) {
      await Promise.all(Array.from({ length: Math.min(50, limit + 20 - sent) }, () => publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=1')));
    }
    const log = s.stats.arrivals.filter((a) => a.endpoint === 'orderbook');
    expect(log).toHaveLength(limit + 20);
    const admitted: number[] = [];
    for (const a of log) {
      const inWindow = admitted.filter((t) => t >= a.at - windowMs).length;
      expect(a.status, `arrival at ${a.at} with ${inWindow} admitted in its window`).toBe(inWindow < limit ? 200 : 429);
      if (a.status === 200) admitted.push(a.at);
    }
    expect(SimStats.maxInWindow(admitted, windowMs)).toBeLessThanOrEqual(limit);
    expect(s.stats.tooManyRequests).toBe(log.filter((a) => a.status === 429).length);
  });

  it('a refused request → 429 with the plain-text body "Too Many Requests"', async () => {
    const s = await sim({ rateLimits: { orderbook: { limit: 2 } } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT');
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Too Many Requests');
    expect(refused.contentType).toMatch(/^text\/plain/);
    expect(refused.json).toBeUndefined();
    // Per endpoint: the public overall bucket (2000) still has room for ping.
    expect((await publicGet(s.baseUrl, '/api/v4/public/ping')).status).toBe(200);
  });

  it('private limits are per API key; a refused request is not counted against the window', async () => {
    const s = await sim({ rateLimits: { orders: { limit: 3 } } });
    const [a, b] = [simAccount(s, false), simAccount(s, true)];
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await signedPost(s.baseUrl, '/api/v4/orders', a)).status);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect((await signedPost(s.baseUrl, '/api/v4/orders', b)).status).toBe(200);
    // Other private endpoints of the same key are unaffected.
    expect((await signedPost(s.baseUrl, '/api/v4/trade-account/balance', a)).status).toBe(200);
  });

  it('main-account endpoints share one bucket', async () => {
    const s = await sim({ rateLimits: { mainAccount: { limit: 2 } } });
    const a = simAccount(s, true);
    expect((await signedPost(s.baseUrl, '/api/v4/main-account/balance', a)).status).toBe(200);
    expect((await signedPost(s.baseUrl, '/api/v4/main-account/smart/investments', a)).status).toBe(200);
    expect((await signedPost(s.baseUrl, '/api/v4/main-account/codes', a, { ticker: 'USDT', amount: '1' })).status).toBe(429);
  });
});
