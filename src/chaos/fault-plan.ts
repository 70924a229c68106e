import type { EndpointFaults, FaultConfig } from '../sim/http/faults.js';
import type { EndpointName } from '../venue/wire.js';

/**
 * The faults a chaos run injects into the simulated exchange, from its seed. Every private endpoint the
 * daemon uses is faulted; order creation and cancel get the most (≥ 10 % of their requests combined, as the
 * issue asks): 503 without acting, the answer dropped after the venue acted, a request held past the
 * client's deadline and acted on afterwards, 429 bursts, latency spikes. The malformed mode answers a share
 * of every request with garbage instead (after the venue acted, so an order may exist behind the garbage).
 * The lying mode answers in well-formed JSON that is wrong (sim/http/lie-config.ts), and nothing else.
 */
export interface FaultPlanOptions {
  readonly seed: number;
  /** The daemons' whole-request timeout (venue.timeoutMs): timeouts hold a request past it. */
  readonly clientTimeoutMs: number;
}

const ORDER_ENDPOINTS: readonly EndpointName[] = ['orderNew', 'orderCancel', 'orderStopLimit', 'orderBulk', 'orderCancelAll'];
const READ_ENDPOINTS: readonly EndpointName[] = ['orders', 'tradeBalance', 'executedHistory', 'orderHistory', 'killSwitch'];

/** Share of order-creation and cancel requests that meet a fault, for the summary (the sim counts the real ones). */
export const ORDER_FAULT_SHARE = 0.12;

export function chaosFaults(o: FaultPlanOptions): FaultConfig {
  const hold = o.clientTimeoutMs + 1500;
  const orders: EndpointFaults = {
    error5xx: 0.03,
    dropAfterAccept: 0.04,
    timeout: 0.02,
    timeoutMs: hold,
    burst429: 0.004,
    burstMs: 1500,
    spike: 0.03,
    spikeMs: [200, Math.max(300, Math.round(o.clientTimeoutMs * 0.8))],
    latencyMs: [0, 15],
  };
  const reads: EndpointFaults = {
    error5xx: 0.03,
    dropAfterAccept: 0.02,
    timeout: 0.005,
    timeoutMs: hold,
    burst429: 0.002,
    burstMs: 1000,
    spike: 0.02,
    spikeMs: [200, 1500],
  };
  return { seed: o.seed, endpoints: endpoints(orders, reads) };
}

/** Garbage on a share of every private answer and of the order book; no other fault, so each error is garbage's. */
export function malformedFaults(o: FaultPlanOptions & { readonly share?: number }): FaultConfig {
  const garbage: EndpointFaults = { garbage: o.share ?? 0.15, dripMs: [200, o.clientTimeoutMs * 2] };
  return { seed: o.seed, endpoints: { ...endpoints(garbage, garbage), orderbook: garbage } };
}

function endpoints(orders: EndpointFaults, reads: EndpointFaults): Partial<Record<EndpointName, EndpointFaults>> {
  const out: Partial<Record<EndpointName, EndpointFaults>> = {};
  for (const e of ORDER_ENDPOINTS) out[e] = orders;
  for (const e of READ_ENDPOINTS) out[e] = reads;
  return out;
}

/**
 * Every lie of issue 23, on both markets, no other fault. Orders and deals: a few per cent each (a daemon places
 * thousands of orders in ten minutes, so each kind is met hundreds of times); an order record in the open-orders
 * lists, polled every second, rarely. Books: a few episodes of each kind per market in ten minutes, the frozen
 * books and outages long enough (12 s, 20 s) to outlast the daemons' staleAfterMs (5 s) plus the audit's margin.
 */
export function lyingFaults(o: Pick<FaultPlanOptions, 'seed'>): FaultConfig {
  return {
    seed: o.seed,
    lies: {
      hiddenOpenOrders: { probability: 0.03, forMs: 16_000 },
      duplicateDeals: { probability: 0.05 },
      corruptDeals: { probability: 0.05, forMs: 3_000 },
      contradictingAnswers: { probability: 0.03, recordProbability: 0.002 },
      absurdBook: { perMinute: 0.3, forMs: 6_000 },
      crossedBook: { perMinute: 0.3, forMs: 3_000 },
      frozenBook: { perMinute: 0.3, forMs: 12_000 },
      bookOutage: { perMinute: 0.15, forMs: 20_000 },
    },
  };
}
