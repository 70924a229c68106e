/**
 * The backtest config (`bot backtest <config.yaml>`). Strategies and polling have exactly the daemon's
 * shape (the schema pieces are taken from src/settings/daemon-config.ts, so a strategy block can be
 * copied between `bot run` and `bot backtest` configs); the rest describes the replay.
 *
 * ```yaml
 * data: [../backtest/sample-data/sim-btc-usdt.jsonl.gz]   # relative to this file; --data overrides
 * balances: { BTC: 0.5, USDT: 30000 }                      # initial trade balance of the account
 * latency: { requestMs: 25, responseMs: 25 }               # each way, virtual ms
 * rateLimits: true                                          # the venue's limits, shared by polling and orders
 * fills: [optimistic, pessimistic]                          # lanes run side by side (the PnL band)
 * fillModel: { queueAhead: 1, decreaseTrades: 1 }            # the optimistic lane's parameters (bot parity --fit)
 * sampleMs: 1000                                            # equity curve sampling (Sharpe/Sortino period)
 * polling: { bookMs: 1000, bookLimit: 20 }
 * strategies:
 *   - { id: mm, use: market-maker, market: BTC_USDT, params: { spread: 0.001 }, risk: { maxLoss: 100 } }
 * out: var/backtest                                         # report directory; --out overrides
 * log: { level: warn }
 * ```
 */
import { z } from 'zod';
import { DaemonConfigSchema } from '../src/settings/daemon-config.js';
import { zIntLike, zNonNegativeDecimal } from '../src/settings/decimal-schema.js';
import { FillModelSchema } from '../src/fill-model/fill-model-params.js';

const ms = zIntLike.pipe(z.number().int().min(0));

export const BacktestConfigSchema = z.strictObject({
  /** Recording files, read in order. Relative paths are relative to the config file. */
  data: z.array(z.string().min(1)).default([]),
  balances: z.record(z.string().regex(/^[A-Z0-9]+$/, 'expected an asset ticker such as BTC'), zNonNegativeDecimal),
  latency: z.strictObject({ requestMs: ms.default(25), responseMs: ms.default(25) }).default({ requestMs: 25, responseMs: 25 }),
  rateLimits: z.boolean().default(true),
  fills: z
    .array(z.enum(['optimistic', 'pessimistic']))
    .min(1)
    .default(['optimistic', 'pessimistic']),
  /** The optimistic lane's parameters (src/fill-model/fill-model-params.ts); `bot parity --fit` writes this block. */
  fillModel: FillModelSchema,
  sampleMs: zIntLike.pipe(z.number().int().positive()).default(1000),
  polling: DaemonConfigSchema.shape.polling,
  strategies: DaemonConfigSchema.shape.strategies,
  /** Report directory (relative to the current directory). */
  out: z.string().min(1).default('var/backtest'),
  log: z.strictObject({ level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('warn') }).default({ level: 'warn' }),
});

export type BacktestConfig = z.output<typeof BacktestConfigSchema>;
