import { ConfigError } from '../model/errors.js';
import { RATE_LIMITS, type RateBucket, type RateLimit } from '../venue/wire.js';

/** How often each source polls, ms. Book, open orders and deals are per market; the balance is account-wide. */
export interface PollingIntervals {
  readonly bookMs: number;
  readonly balancesMs: number;
  readonly openOrdersMs: number;
  readonly dealsMs: number;
}

export type PollingSource = keyof PollingIntervals;

export interface PollingPlanInput {
  /** The markets polled (duplicates are counted once). */
  readonly markets: readonly string[];
  /** Wished intervals. An explicit wish that does not fit is an error; an absent one takes the default, raised to fit. */
  readonly wishes?: { readonly [K in keyof PollingIntervals]?: PollingIntervals[K] | undefined } | undefined;
  /**
   * Share of every endpoint's budget kept free for what is not polling: orders, cancels, reconciliation through the
   * open-orders endpoint, the CLI. Polling and orders share the same per-endpoint budgets. 0 ≤ reserve < 1, default 0.3.
   */
  readonly reserve?: number | undefined;
  /** Slowest acceptable interval, ms: a plan needing slower polling is rejected. Default 30 000. */
  readonly maxIntervalMs?: number | undefined;
  /** Default: the venue's table (RATE_LIMITS of venue/wire.ts). */
  readonly limits?: Readonly<Record<RateBucket, RateLimit>> | undefined;
}

/** One rate bucket's use by the plan, in requests per window. */
export interface BudgetLine {
  readonly bucket: RateBucket;
  readonly limit: number;
  readonly windowMs: number;
  /** Requests per window the polling makes. */
  readonly polling: number;
  /** Requests per window left for everything else (limit − polling). */
  readonly headroom: number;
}

export interface PollingPlan {
  readonly intervals: PollingIntervals;
  readonly budget: readonly BudgetLine[];
}

export const DEFAULT_INTERVALS: PollingIntervals = { bookMs: 1000, balancesMs: 2000, openOrdersMs: 2000, dealsMs: 1000 };

/** The endpoint each source polls. */
const ENDPOINT: Readonly<Record<PollingSource, RateBucket>> = {
  bookMs: 'orderbook',
  balancesMs: 'tradeBalance',
  openOrdersMs: 'orders',
  dealsMs: 'executedHistory',
};

const LABEL: Readonly<Record<PollingSource, string>> = {
  bookMs: 'order book',
  balancesMs: 'balance',
  openOrdersMs: 'open orders',
  dealsMs: 'deals',
};

/**
 * Chooses poll intervals that fit the venue's per-endpoint limits (and the shared buckets, e.g. public 2000/10 s)
 * after keeping `reserve` of each budget free. Pure. Throws ConfigError naming the source, the need and the
 * budget when an explicit wish, or the number of markets, cannot fit.
 */
export function planPolling(input: PollingPlanInput): PollingPlan {
  const limits = input.limits ?? RATE_LIMITS;
  const reserve = input.reserve ?? 0.3;
  const maxIntervalMs = input.maxIntervalMs ?? 30_000;
  const markets = new Set(input.markets).size;
  if (!(reserve >= 0 && reserve < 1)) throw new ConfigError(`polling: reserve must be in [0, 1), got ${reserve}`);
  if (markets === 0) throw new ConfigError('polling: no markets to poll');

  const callers = (source: PollingSource) => (source === 'balancesMs' ? 1 : markets);
  const intervals = {} as Record<PollingSource, number>;
  for (const source of Object.keys(ENDPOINT) as PollingSource[]) {
    const bucket = limits[ENDPOINT[source]];
    const usable = Math.floor(bucket.limit * (1 - reserve));
    const n = callers(source);
    const fastest = Math.ceil((n * bucket.windowMs) / Math.max(usable, 1e-9));
    const wish = input.wishes?.[source];
    if (wish !== undefined) {
      if (!Number.isInteger(wish) || wish <= 0) throw new ConfigError(`polling: ${source} must be a positive integer (ms), got ${wish}`);
      if (wish < fastest) {
        throw new ConfigError(
          `polling: ${LABEL[source]} every ${wish} ms on ${n} market(s) needs ${Math.ceil((n * bucket.windowMs) / wish)} requests ` +
            `per ${bucket.windowMs / 1000} s, but ${ENDPOINT[source]} allows ${bucket.limit} of which ${usable} are for polling ` +
            `(reserve ${reserve * 100} % for orders); use ${source} >= ${fastest} or fewer markets`,
        );
      }
    }
    const chosen = wish ?? Math.max(DEFAULT_INTERVALS[source], fastest);
    if (chosen > maxIntervalMs) {
      throw new ConfigError(
        `polling: ${LABEL[source]} on ${n} markets cannot be polled more often than every ${chosen} ms within ` +
          `${ENDPOINT[source]}'s ${bucket.limit} per ${bucket.windowMs / 1000} s (max interval ${maxIntervalMs} ms); poll fewer markets`,
      );
    }
    intervals[source] = chosen;
  }

  const budget = budgetOf(intervals, markets, limits);
  for (const line of budget) {
    const usable = Math.floor(line.limit * (1 - reserve));
    if (line.polling > usable) {
      throw new ConfigError(
        `polling: the plan makes ${line.polling} requests per ${line.windowMs / 1000} s on the shared '${line.bucket}' budget, ` +
          `more than the ${usable} available for polling (limit ${line.limit}, reserve ${reserve * 100} %); poll less often`,
      );
    }
  }
  return { intervals, budget };
}

/** Requests per window that `intervals` make on every bucket they touch (shared buckets included). Pure. */
export function budgetOf(intervals: PollingIntervals, markets: number, limits: Readonly<Record<RateBucket, RateLimit>> = RATE_LIMITS): BudgetLine[] {
  const use = new Map<RateBucket, number>();
  for (const source of Object.keys(ENDPOINT) as PollingSource[]) {
    const endpoint = ENDPOINT[source];
    const n = source === 'balancesMs' ? 1 : markets;
    for (const bucket of [endpoint, ...(limits[endpoint].shared ?? [])]) {
      const perWindow = Math.ceil((n * limits[bucket].windowMs) / intervals[source]);
      use.set(bucket, (use.get(bucket) ?? 0) + perWindow);
    }
  }
  return [...use].map(([bucket, polling]) => ({
    bucket,
    limit: limits[bucket].limit,
    windowMs: limits[bucket].windowMs,
    polling,
    headroom: limits[bucket].limit - polling,
  }));
}
