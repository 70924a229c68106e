import type { EndpointName } from './paths.js';

export interface RateLimit {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in milliseconds (sliding). */
  readonly windowMs: number;
  /** Buckets an endpoint also counts against (e.g. `public` overall, `mainAccount` shared). */
  readonly shared?: readonly RateBucket[];
}

export type RateBucket = EndpointName | 'public' | 'mainAccount';

/**
 * Per-endpoint limits per client. The contract's table, plus exchange-facts §2 (main-account
 * endpoints share 1000/10 s; public endpoints share 2000/10 s). Endpoints whose limit is "not
 * shown" get the venue's general private allowance of 1000/10 s (a conservative choice).
 */
export const RATE_LIMITS: Readonly<Record<RateBucket, RateLimit>> = {
  public: { limit: 2000, windowMs: 10_000 },
  mainAccount: { limit: 1000, windowMs: 10_000 },
  ping: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  markets: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  assets: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  orderbook: { limit: 600, windowMs: 10_000, shared: ['public'] },
  // the exchange's docs give no own limit for recent trades: the public allowance it shares
  publicTrades: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  orderNew: { limit: 10_000, windowMs: 10_000 },
  orderStopLimit: { limit: 10_000, windowMs: 10_000 },
  orderCancel: { limit: 10_000, windowMs: 10_000 },
  orders: { limit: 1000, windowMs: 10_000 },
  // the exchange's docs: 10000 / 10 s to set the timer, 100 / 10 s to read it (wire/kill-switch.ts)
  killSwitch: { limit: 10_000, windowMs: 10_000 },
  killSwitchStatus: { limit: 100, windowMs: 10_000 },
  tradeBalance: { limit: 1000, windowMs: 10_000 },
  executedHistory: { limit: 1000, windowMs: 10_000 },
  mainBalance: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  transfer: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  codes: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  investments: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  // Not shown in the contract nor found in the exchange's docs: the general private allowance. A bulk request
  // counts once however many orders it carries (one request), and not against order/new's bucket.
  orderBulk: { limit: 1000, windowMs: 10_000 },
  orderCancelAll: { limit: 1000, windowMs: 10_000 },
  orderHistory: { limit: 1000, windowMs: 10_000 },
};
