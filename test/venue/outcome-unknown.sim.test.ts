import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { OutcomeUnknownError, UnavailableError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { simAccount, withSim } from '../helpers/with-sim.js';

describe('outcome unknown, end to end against the sim with fault injection', () => {
  it('an order accepted but never answered is OutcomeUnknownError, sent once, and found again by client order id', async () => {
    await withSim({ flow: false, faults: { endpoints: { orderNew: { dropAfterAccept: 1 } } } }, async (sim) => {
      const acc = simAccount(sim, true);
      const client = new RestClient({ baseUrl: sim.baseUrl, apiKey: acc.apiKey, apiSecret: acc.apiSecret });
      try {
        const err = await client
          .placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('29000'), clientOrderId: 'lost-1' })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OutcomeUnknownError);
        expect((err as OutcomeUnknownError).clientOrderId).toBe('lost-1');
        expect(sim.stats.arrivals.filter((a) => a.endpoint === 'orderNew')).toHaveLength(1);
        // reconcile the way the engine does: the order is there, exactly once
        const found = await client.openOrders({ market: 'BTC_USDT', clientOrderId: 'lost-1' });
        expect(found).toHaveLength(1);
        expect(found[0]?.price.eq(29000)).toBe(true);
      } finally {
        client.close();
      }
    });
  });

  it('a read survives injected 503s by retrying; order creation does not retry them', async () => {
    await withSim({ flow: false, faults: { seed: 3, endpoints: { tradeBalance: { error5xx: 0.5 }, orderNew: { error5xx: 1 } } } }, async (sim) => {
      const acc = simAccount(sim, true);
      const client = new RestClient({ baseUrl: sim.baseUrl, apiKey: acc.apiKey, apiSecret: acc.apiSecret, retry: { limit: 8, networkBaseMs: 5, maxMs: 20 } });
      try {
        for (let i = 0; i < 6; i++) expect((await client.tradeBalance('BTC')).BTC).toBeDefined();
        expect(sim.stats.arrivals.filter((a) => a.endpoint === 'tradeBalance' && a.status === 503).length).toBeGreaterThan(0);
        const err = await client
          .placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('29000'), clientOrderId: 'x-1' })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OutcomeUnknownError);
        expect((err as OutcomeUnknownError).cause).toBeInstanceOf(UnavailableError);
        expect(sim.stats.arrivals.filter((a) => a.endpoint === 'orderNew')).toHaveLength(1);
      } finally {
        client.close();
      }
    });
  });
});
