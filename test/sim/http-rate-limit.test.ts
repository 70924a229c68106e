import { describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../src/venue/wire.js';
import { SimStats } from '../../src/sim/http/sim-stats.js';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/**
 * Rate limits per client in sliding 10 s windows → 429 with a plain-text body. The order book's
 * real limit (600 / 10 s) is cheap to reach over loopback, so it runs without overrides; the private
 * test lowers one limit through `rateLimits` (a test-only override) to stay fast.
 */
describe('rate limits', () => {
  const sim = useSim({ flow: false });

  it('order book: the 601st request within 10 s → 429 "Too Many Requests" (plain text)', async () => {
    const s = await sim();
    const limit = RATE_LIMITS.orderbook.limit;
    const statuses: number[] = [];
    // Sequential batches of 50 concurrent requests: well inside one 10 s window on any machine that runs this suite.
    for (let sent = 0; sent < limit + 20; sent += 50) {
      const batch = await Promise.all(Array.from({ length: Math.min(50, limit + 20 - sent) }, () => publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT?limit=1')));
      statuses.push(...batch.map((r) => r.status));
    }
    const times = s.stats.arrivalTimes('orderbook');
    const admitted = s.stats.arrivals.filter((a) => a.endpoint === 'orderbook' && a.status === 200).map((a) => a.at);
    expect(SimStats.maxInWindow(admitted, 10_000)).toBeLessThanOrEqual(limit);
    if (times[times.length - 1]! - times[0]! < 10_000) {
      expect(statuses.filter((x) => x === 200)).toHaveLength(limit);
      expect(statuses.filter((x) => x === 429)).toHaveLength(20);
    }
    const refused = await publicGet(s.baseUrl, '/api/v4/public/orderbook/BTC_USDT');
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Too Many Requests');
    expect(refused.json).toBeUndefined();
    expect(s.stats.tooManyRequests).toBeGreaterThanOrEqual(1);
    // The public overall bucket counted them too, but ping still has room (2000 overall).
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
