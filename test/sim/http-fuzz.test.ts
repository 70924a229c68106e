import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { simAccount, useSim } from '../helpers/with-sim.js';
import { signedPost } from '../helpers/sim-request.js';

/**
 * Property: whatever a signed body holds, the order endpoints answer with a venue status and body
 * shape (200 record, 400 inner validation, 422 request validation with a code of the table) and
 * never fail inside (500) or hang. Bounded runs: each case is a real HTTP round trip.
 */
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ noNaN: false }),
  fc.constantFrom('', 'BTC_USDT', 'ETH_USDT', 'buy', 'sell', '0.01', '20000', '0.0000001', '1e3', '-1', 'abc', 'cb', 'no', 'x y'),
  fc.string({ maxLength: 12 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);

const orderBody = fc.record(
  {
    market: fc.oneof(fc.constantFrom('BTC_USDT', 'ETH_USDT'), anyValue),
    side: fc.oneof(fc.constantFrom('buy', 'sell'), anyValue),
    amount: fc.oneof(fc.constantFrom('0.01', '0.002', 0.5), anyValue),
    price: fc.oneof(fc.constantFrom('20000', '1999.99', 30000), anyValue),
    activation_price: fc.oneof(fc.constantFrom('20100', '1990'), anyValue),
    client_order_id: anyValue,
    postOnly: anyValue,
    ioc: anyValue,
    rpi: anyValue,
    stp: anyValue,
  },
  { requiredKeys: [] },
);

describe('order endpoints under arbitrary bodies', () => {
  const sim = useSim({ flow: false });

  it('answer 200, 400 or 422 with the venue shapes, never 5xx', async () => {
    const s = await sim();
    const a = simAccount(s, false);
    await fc.assert(
      fc.asyncProperty(orderBody, fc.constantFrom('/api/v4/order/new', '/api/v4/order/stop_limit'), async (fields, path) => {
        const clean = JSON.parse(JSON.stringify(fields)) as Record<string, unknown>;
        const r = await signedPost(s.baseUrl, path, a, clean);
        expect([200, 400, 422]).toContain(r.status);
        const body = r.json as Record<string, unknown>;
        if (r.status === 200) expect(typeof body['order_id']).toBe('number');
        if (r.status === 422) {
          expect(body['message']).toBe('Validation failed');
          expect([30, 31, 32, 33, 35, 36, 37]).toContain(body['code']);
          expect(Object.keys(body['errors'] as object).length).toBeGreaterThan(0);
        }
        if (r.status === 400) expect(body).toMatchObject({ code: 10, message: 'Inner validation failed' });
      }),
      { numRuns: 150 },
    );
  });
});

describe('every private endpoint under arbitrary bodies', () => {
  const sim = useSim({ flow: false });
  const paths = [
    '/api/v4/order/cancel',
    '/api/v4/orders',
    '/api/v4/order/kill-switch',
    '/api/v4/trade-account/balance',
    '/api/v4/trade-account/executed-history',
    '/api/v4/main-account/balance',
    '/api/v4/main-account/transfer',
    '/api/v4/main-account/codes',
    '/api/v4/main-account/smart/investments',
  ];
  const fields = fc.dictionary(
    fc.constantFrom(
      'market',
      'orderId',
      'clientOrderId',
      'client_order_id',
      'limit',
      'offset',
      'timeout',
      'ticker',
      'amount',
      'from',
      'to',
      'passphrase',
      'description',
      'id',
      'status',
    ),
    anyValue,
    { maxKeys: 5 },
  );

  it('answer a 2xx or a 4xx with a JSON body, never 5xx', async () => {
    const s = await sim();
    const a = simAccount(s, true);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fields, async (path, body) => {
        const r = await signedPost(s.baseUrl, path, a, JSON.parse(JSON.stringify(body)) as Record<string, unknown>);
        expect(r.status, `${path} ${JSON.stringify(body)} → ${r.text}`).toBeLessThan(500);
        expect(r.json).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });
});
