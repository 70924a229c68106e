import { D } from '../../src/model/decimal.js';
import { startSim } from '../../src/sim/start-sim.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { PlaceLimitRequest } from '../../src/venue/trading-api.js';

/**
 * A ladder of 20 limit orders placed through the real RestClient against the sim over loopback:
 * (a) 20 sequential order/new (what the executor does with one request in flight per strategy: the baseline),
 * (b) one order/bulk of 20 (executor.bulk). Both in the same run, rounds alternating; the book is cleared with
 * cancel-all between ladders (not timed). Figures: ladder time p50/p90, orders per second and their ratio, and the
 * rate-limit slots a ladder takes (20 vs 1). Rate limits raised so neither side waits for a window.
 */
const LADDER = 20;
const ROUNDS = 6;
const LADDERS_PER_ROUND = 25;

export default async function bench(): Promise<void> {
  const sim = await startSim({ flow: false, rateLimits: { orderNew: { limit: 1e9 }, orderBulk: { limit: 1e9 }, orderCancelAll: { limit: 1e9 } } });
  const acc = sim.accounts.find((a) => !a.partner)!;
  const client = new RestClient({ baseUrl: sim.baseUrl, apiKey: acc.apiKey, apiSecret: acc.apiSecret, rateLimiter: false });
  let seq = 0;
  const ladder = (): PlaceLimitRequest[] =>
    Array.from({ length: LADDER }, (_, i) => ({
      market: 'BTC_USDT',
      side: 'buy' as const,
      amount: D('0.001'),
      price: D(10000 + i),
      clientOrderId: `bench-${++seq}`,
    }));
  const cases: Record<string, (orders: PlaceLimitRequest[]) => Promise<void>> = {
    sequentialOrderNew: async (orders) => {
      for (const o of orders) await client.placeLimit(o);
    },
    oneBulk: async (orders) => {
      const r = await client.placeLimitBulk(orders);
      if (r.some((x) => x.status !== 'placed')) throw new Error('a bench order was not placed');
    },
  };
  const times: Record<string, number[]> = {};
  try {
    for (const fn of Object.values(cases)) await fn(ladder()); // warm-up
    await client.cancelAll('BTC_USDT');
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, fn] of Object.entries(cases)) {
        for (let k = 0; k < LADDERS_PER_ROUND; k++) {
          const orders = ladder();
          const t0 = performance.now();
          await fn(orders);
          (times[name] ??= []).push(performance.now() - t0);
          await client.cancelAll('BTC_USDT');
        }
      }
    }
  } finally {
    client.close();
    await sim.close();
  }
  const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const perSec = (xs: number[]): number => (LADDER * xs.length * 1000) / xs.reduce((a, b) => a + b, 0);
  for (const [name, xs] of Object.entries(times)) {
    process.stdout.write(
      `${name.padEnd(20)} ladder of ${LADDER}: p50 ${pct(xs, 0.5).toFixed(2)} ms, p90 ${pct(xs, 0.9).toFixed(2)} ms, ${perSec(xs).toFixed(0)} orders/s, ${name === 'oneBulk' ? 1 : LADDER} rate-limit slot(s)\n`,
    );
  }
  const ratio = perSec(times.oneBulk!) / perSec(times.sequentialOrderNew!);
  process.stdout.write(`ratio oneBulk / sequentialOrderNew (orders per second): ${ratio.toFixed(2)}; rate-limit slots per ladder ${LADDER} → 1\n`);
}
