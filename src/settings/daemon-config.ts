import { z } from 'zod';
import { parseDecimal, type Decimal } from '../model/decimal.js';
import { zIntLike, zNonNegativeDecimal, zPositiveDecimal } from './decimal-schema.js';
import { describeType } from './format-issues.js';
import { AlertsConfigSchema, HttpConfigSchema } from './ops-config.js';
import { PaperVenueSchema } from './paper-venue-config.js';
import { RecordConfigSchema } from './record-config.js';

/**
 * The daemon's config (`bot run <config.yaml>`), validated by `loadYamlConfig` (file, path and expectation in
 * every message; `${ENV}` / `${ENV:-default}` interpolated in strings). Objects are strict: an unknown key is an
 * error, so a typo never silently falls back to a default.
 *
 * ```yaml
 * venue: { kind: sim, account: alice, sim: { speed: 5 } }          # embedded simulated exchange
 * # venue: { kind: rest, region: main, dialect: exchange, apiKey: ${BOT_API_KEY}, apiSecret: ${BOT_API_SECRET} }
 * # venue: { kind: paper, upstream: { region: main }, balances: { USDT: 5000 } }   # live public data, no keys (paper-venue-config.ts)
 * strategies:
 *   - { id: mm-btc, use: market-maker, market: BTC_USDT, params: { spread: 0.002 }, risk: { maxOrderNotional: 100, maxLoss: 50 } }
 * polling: { bookMs: 500 }
 * journal: { path: var/journal.jsonl }
 * log: { level: info }
 * status: { everyMs: 5000 }
 * shutdown: { cancelOpenOrders: true }
 * deadMan: { timeoutSec: 30 }
 * http: { listen: 127.0.0.1:9464, token: ${BOT_HTTP_TOKEN:-} }
 * alerts: { webhook: ${BOT_ALERT_WEBHOOK}, on: [strategy-halted, loss-limit, venue-unreachable] }
 * risk: { account: { maxDrawdown: 300, maxDailyLoss: 200, maxGrossNotional: 20000 } }
 * record: { path: var/recordings, rotate: { maxBytes: 50M, daily: true } }
 * ```
 */

const simVenue = z.strictObject({
  kind: z.literal('sim'),
  /** Client account of the sim to trade as (by name). Default: the first non-partner client account. */
  account: z.string().min(1).optional(),
  /** Answer spelling of the embedded sim and the client. Default `contract`. */
  dialect: z.enum(['contract', 'exchange']).default('contract'),
  /**
   * Overrides of the sim config: `file` (a sim YAML like config/sim.yaml, default the built-in config), then
   * any keys deep-merged over it (objects merge, arrays and scalars replace), e.g. `speed: 5` or
   * `flow: { markets: { BTC_USDT: { volatility: 0.0002 } } }`.
   */
  sim: z.looseObject({ file: z.string().min(1).optional() }).optional(),
});

const restVenue = z
  .strictObject({
    kind: z.literal('rest'),
    /** The live venue's main or regional address; exclusive with baseUrl. */
    region: z.enum(['main', 'eu']).optional(),
    /** Any URL speaking v4, e.g. a `bot sim` started elsewhere. */
    baseUrl: z.string().url().optional(),
    dialect: z.enum(['contract', 'exchange']).default('contract'),
    apiKey: z.string().min(1, 'expected an API key (e.g. ${BOT_API_KEY})'),
    apiSecret: z.string().min(1, 'expected an API secret (e.g. ${BOT_API_SECRET})'),
    /**
     * Send `nonceWindow: true` (nonce within ±5 s of venue time and unique) instead of strictly increasing nonces.
     * Default true: the daemon polls and orders concurrently, and concurrent requests over several sockets can
     * arrive out of nonce order, which the strict rule refuses. Set false if the host clock cannot be kept in sync.
     */
    nonceWindow: z.boolean().default(true),
    timeoutMs: zIntLike.pipe(z.number().int().positive()).optional(),
  })
  .refine((v) => !(v.region !== undefined && v.baseUrl !== undefined), { message: 'give region or baseUrl, not both', path: ['baseUrl'] });

const risk = z.strictObject({
  maxOrderNotional: zPositiveDecimal.optional(),
  /** Per asset ticker, e.g. `{ BTC: 0.05, USDT: 2000 }`. */
  maxInventory: z.record(z.string().regex(/^[A-Z0-9]+$/, 'expected an asset ticker such as BTC'), zNonNegativeDecimal).optional(),
  maxOpenOrders: zIntLike.pipe(z.number().int().positive()).optional(),
  maxOrdersPerMinute: zIntLike.pipe(z.number().int().positive()).optional(),
  maxLoss: zPositiveDecimal.optional(),
  /**
   * On a REST venue (real money) a strategy must have maxOrderNotional and maxLoss; `unlimited: true` says running
   * without them is meant. Limits given beside it still apply. Other venues need no limits.
   */
  unlimited: z.boolean().optional(),
  /**
   * The price band: an order priced further than this fraction from the last sane mid is refused (risk:price-band).
   * On for every strategy: absent = 0.05 (5 %); `false` (or `null`) turns it off.
   */
  maxDeviation: z
    .unknown()
    .transform((value, ctx): Decimal | false => {
      if (value === false || value === null) return false;
      const d = parseDecimal(value);
      if (d !== undefined && d.gt(0)) return d;
      const got = d === undefined ? describeType(value) : d.toFixed();
      ctx.addIssue({
        code: 'custom',
        message: `expected a fraction greater than 0 (0.05 = 5 %), or false to turn the price band off, got ${got}`,
        input: value,
      });
      return z.NEVER;
    })
    .optional(),
});

/** The limits a strategy on a REST venue cannot start without (unless `risk.unlimited: true`). */
export const REST_REQUIRED_LIMITS = ['maxOrderNotional', 'maxLoss'] as const;

const strategy = z.strictObject({
  /** Instance id, unique in the file; its first 12 characters prefix the instance's client order ids. */
  id: z.string().regex(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/, 'expected letters, digits and single dashes (it prefixes client order ids)'),
  /** Built-in strategy name (market-maker, grid, stop-guard, twap) or a path to a .ts/.js module. */
  use: z.string().min(1),
  market: z.string().min(1),
  /** Validated later by the strategy's own schema (defaults applied). */
  params: z.record(z.string(), z.unknown()).default({}),
  risk: risk.default({}),
});

const ms = zIntLike.pipe(z.number().int().positive());

/**
 * `risk:` at the top level: limits over ALL strategies together (src/engine/account-risk.ts), in the money asset their
 * markets share (strategies in markets of different money assets are refused). Off when absent.
 */
const accountRisk = z.strictObject({
  account: z
    .strictObject({
      /** Peak account equity (sum of the strategies' net PnL, over the journal's life) minus equity that halts every strategy. */
      maxDrawdown: zPositiveDecimal.optional(),
      /** Equity at the start of the UTC day minus equity that halts every strategy. */
      maxDailyLoss: zPositiveDecimal.optional(),
      /** Pre-trade: Σ |position| × mid + Σ open orders' left × price + the new order may not exceed it. */
      maxGrossNotional: zPositiveDecimal.optional(),
    })
    .refine((a) => a.maxDrawdown !== undefined || a.maxDailyLoss !== undefined || a.maxGrossNotional !== undefined, {
      message: 'expected at least one of maxDrawdown, maxDailyLoss, maxGrossNotional (or leave risk.account out)',
    })
    .optional(),
});

export const DaemonConfigSchema = z
  .strictObject({
    venue: z.discriminatedUnion('kind', [simVenue, restVenue, PaperVenueSchema]),
    strategies: z.array(strategy).min(1, 'expected at least one strategy'),
    /** Wished intervals; unset ones are chosen within the rate limits (streams/polling-plan). */
    polling: z
      .strictObject({
        bookMs: ms.optional(),
        balancesMs: ms.optional(),
        openOrdersMs: ms.optional(),
        dealsMs: ms.optional(),
        bookLimit: zIntLike.pipe(z.number().int().min(0).max(100)).optional(),
        bookLevel: zIntLike.pipe(z.number().int().min(0).max(5)).optional(),
        /** No fresh sane book for this long: the market's orders are cancelled and places refused. Default max(3 × bookMs, 5000). */
        staleAfterMs: ms.optional(),
        /** A book whose mid moved more than this fraction from the last sane one is held until confirmed (streams/sane-books.ts). Default 0.1. */
        maxJump: zPositiveDecimal.optional(),
        /** Polls after a jump that must agree with it (and, where the venue lists its trades, trades there). Default 2. */
        confirmPolls: zIntLike.pipe(z.number().int().min(0).max(100)).optional(),
        /** Share of each endpoint budget kept for orders and cancels. Default 0.3. */
        reserve: z.number().min(0).max(0.95).optional(),
      })
      .default({}),
    journal: z
      .strictObject({
        path: z.string().min(1).default('var/journal.jsonl'),
        /** See FsyncPolicy in src/engine/journal.ts (the daemon passes it there, so the type checker keeps the two in step). */
        fsync: z.enum(['background', 'submissions', 'always', 'never']).default('background'),
      })
      .default({ path: 'var/journal.jsonl', fsync: 'background' }),
    log: z
      .strictObject({
        level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
        /** Default: pretty on a terminal, JSON otherwise. */
        pretty: z.boolean().optional(),
        /** Log file instead of stdout. */
        file: z.string().min(1).optional(),
      })
      .default({ level: 'info' }),
    status: z.strictObject({ everyMs: ms.default(5000) }).default({ everyMs: 5000 }),
    shutdown: z.strictObject({ cancelOpenOrders: z.boolean().default(true) }).default({ cancelOpenOrders: true }),
    executor: z
      .strictObject({
        concurrency: zIntLike.pipe(z.number().int().min(1).max(16)).default(1),
        /**
         * Send a strategy's limit places emitted together as one bulk request (order/bulk, up to 20 each) instead
         * of one order/new each. Off by default, so runs stay request-for-request what they were.
         */
        bulk: z.boolean().default(false),
      })
      .default({ concurrency: 1, bulk: false }),
    /**
     * The venue's dead-man timer (engine/dead-man.ts): armed for every traded market at start, reset every third of
     * `timeoutSec`, cleared at a clean stop; if the daemon dies, the venue cancels its orders when it runs out.
     * Off when absent. `timeoutSec`: 5-600 (the venue's range), default 30.
     */
    deadMan: z.strictObject({ timeoutSec: zIntLike.pipe(z.number().int().min(5).max(600)).default(30) }).optional(),
    /** The operations HTTP surface (src/ops): /metrics, /health, /ready, the dashboard at / and its controls. Off when absent. */
    http: HttpConfigSchema.optional(),
    /** Webhook alerts (src/ops/alerts). Off when absent. */
    alerts: AlertsConfigSchema.optional(),
    /** Account-wide limits (`risk: { account: {...} }`). Per-strategy limits stay under each strategy's `risk:`. */
    risk: accountRisk.optional(),
    /** The public data the daemon polls, recorded for replays (record-config.ts). Off when absent. */
    record: RecordConfigSchema.optional(),
  })
  .superRefine((cfg, ctx) => {
    const seen = new Set<string>();
    cfg.strategies.forEach((s, i) => {
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: ['strategies', i, 'id'], message: `duplicate strategy id '${s.id}'` });
      seen.add(s.id);
      const missing = REST_REQUIRED_LIMITS.filter((k) => s.risk[k] === undefined);
      if (cfg.venue.kind === 'rest' && missing.length > 0 && s.risk.unlimited !== true) {
        ctx.addIssue({
          code: 'custom',
          path: ['strategies', i, 'risk'],
          message: `a rest venue trades real money: give ${missing.join(' and ')} (or \`unlimited: true\` to run without them on purpose)`,
        });
      }
    });
  });

export type DaemonConfig = z.output<typeof DaemonConfigSchema>;
export type DaemonStrategyConfig = DaemonConfig['strategies'][number];
