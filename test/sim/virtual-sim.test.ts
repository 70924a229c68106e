import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryJournal } from '../../src/engine/journal.js';
import { D } from '../../src/model/decimal.js';
import { InnerValidationError, RateLimitedError, RequestValidationError } from '../../src/venue/errors.js';
import { exampleConfig, runAgainstSim, startFastSim } from '../strategies/sim-run.js';

/** The in-process sim on virtual time (test/helpers/virtual-sim.ts), which the strategy-against-sim tests run on. */
describe('the simulated exchange in-process on virtual time', () => {
  it('runs the same way every time: two grid runs give the same journal and the same requests at the same instants', async () => {
    const once = async () => {
      const sim = startFastSim(20);
      try {
        const { account, strategies } = exampleConfig('grid');
        const journal = new MemoryJournal();
        await runAgainstSim({ sim, account, strategies, journal, ms: 30_000, cancelOnStop: true });
        const records = journal.records();
        return {
          fills: records.filter((r) => r.type === 'fill').length,
          submits: records.filter((r) => r.type === 'submit').length,
          requests: sim.stats.arrivals.length,
          journal: createHash('sha256').update(JSON.stringify(records)).digest('hex'),
          // by account name: the default config's API keys are drawn afresh for every sim
          arrivals: createHash('sha256')
            .update(
              JSON.stringify(sim.stats.arrivals.map((a) => [a.at, a.endpoint, a.status, sim.accounts.find((x) => x.apiKey === a.client)?.name ?? a.client])),
            )
            .digest('hex'),
          end: sim.scheduler.now() - sim.startMs,
        };
      } finally {
        sim.close();
      }
    };
    const first = await once();
    // a real run: the grid traded, through the sim's request handling, and virtual time moved past the run
    expect(first.submits).toBeGreaterThanOrEqual(10);
    expect(first.fills).toBeGreaterThan(0);
    expect(first.requests).toBeGreaterThan(100);
    expect(first.end).toBeGreaterThanOrEqual(30_000);
    expect(await once()).toEqual(first);
  });

  it('answers through the sim’s own checks: rules (422), balance (400), rate limits (429) reach the real client as over HTTP', async () => {
    const sim = startFastSim(1);
    try {
      const client = sim.client('bob', { rateLimiter: false, retry: { limit: 0 } });
      // answers take no virtual time: a lone request needs no driving
      await expect(
        client.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.00000001'), price: D('30000'), clientOrderId: 'small-1' }),
      ).rejects.toBeInstanceOf(RequestValidationError);
      await expect(client.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('1000'), price: D('30000'), clientOrderId: 'big-1' })).rejects.toBeInstanceOf(
        InnerValidationError,
      );
      expect(sim.stats.orderRejectionsByCode.get(10)).toBe(1);
      // 700 order books at one instant against the bucket's 600 per 10 s: the sim's rate window refuses exactly 100
      const outcomes = await Promise.all(
        Array.from({ length: 700 }, () =>
          client.orderBook('BTC_USDT').then(
            () => 'ok',
            (e: unknown) => e,
          ),
        ),
      );
      expect(outcomes.filter((o) => o instanceof RateLimitedError).length).toBe(100);
      expect(sim.stats.tooManyRequests).toBe(100);
    } finally {
      sim.close();
    }
  });

  it('the client’s rate limiter waits on the virtual clock: 700 order books go out over more than 10 s of it, none refused', async () => {
    const sim = startFastSim(1);
    try {
      const client = sim.client('bob');
      const start = sim.scheduler.now();
      await sim.run(Promise.all(Array.from({ length: 700 }, () => client.orderBook('BTC_USDT'))));
      expect(sim.stats.tooManyRequests).toBe(0);
      expect(sim.stats.arrivals.filter((a) => a.endpoint === 'orderbook').length).toBe(700);
      expect(sim.scheduler.now() - start).toBeGreaterThan(10_000);
    } finally {
      sim.close();
    }
  });
});
