import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { type Decimal, parseDecimal } from '../model/decimal.js';
import { ConfigError } from '../model/errors.js';

/** A decimal given as a number or a numeric string in YAML; always a Decimal after parsing. */
const zDec = z.union([z.string(), z.number()]).transform((value, ctx): Decimal => {
  const d = parseDecimal(typeof value === 'string' ? value.trim() : value);
  if (d === undefined) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal number, got ${JSON.stringify(value)}` });
    return z.NEVER;
  }
  return d;
});
const zNonNegDec = zDec.refine((d) => d.gte(0), 'expected a decimal >= 0');
const zTicker = z.string().regex(/^[A-Z0-9]{1,16}$/, 'expected an upper-case ticker such as USDT');

const marketSchema = z.strictObject({
  name: z.string().regex(/^[A-Z0-9]+_[A-Z0-9]+$/, 'expected a market name such as BTC_USDT'),
  stock: zTicker,
  money: zTicker,
  stockPrec: z.number().int().min(0).max(12),
  moneyPrec: z.number().int().min(0).max(12),
  minAmount: zNonNegDec,
  minTotal: zNonNegDec,
  /** 0 = no cap (as the venue publishes it). */
  maxTotal: zNonNegDec.prefault('0'),
  /** PERCENT, as the venue publishes it: 0.1 = 0.1 %. */
  makerFee: zNonNegDec,
  takerFee: zNonNegDec,
  tradesEnabled: z.boolean().default(true),
});

const balancesSchema = z.record(zTicker, zNonNegDec).prefault({});

const accountSchema = z.strictObject({
  name: z.string().min(1),
  /** Absent: a random key is generated at start (printed by `bot sim --json`). */
  apiKey: z.string().min(8).optional(),
  apiSecret: z.string().min(8).optional(),
  /** Business partner: may read investments. */
  partner: z.boolean().default(false),
  /** Internal accounts (the synthetic flow's) are not handed out to clients. */
  internal: z.boolean().default(false),
  /** Trade (spot) balance. */
  trade: balancesSchema,
  /** Main balance (codes spend it; transfers move between the two). */
  main: balancesSchema,
});

const marketFlowSchema = z.strictObject({
  seed: z.number().int().default(1),
  /** Starting mid price. */
  mid: zDec,
  /** Volatility of the mid as a fraction per sqrt(second): 0.0001 = 1 bp over one second (~56 % a year). */
  volatility: z.number().min(0).max(1).default(0.0001),
  /** Synthetic participants (each posts and cancels its own quotes). */
  participants: z.number().int().min(1).max(50).default(4),
  /** Quotes posted per second, all participants together. */
  postRate: z.number().min(0).default(10),
  /** Quote cancellations per second. */
  cancelRate: z.number().min(0).default(6),
  /** Taker (IOC) orders per second. */
  takeRate: z.number().min(0).default(2),
  /** Price levels each side around the mid that quotes are spread over. */
  depth: z.number().int().min(1).max(200).default(20),
  /** Half-spread of the synthetic quotes, in price steps. */
  halfSpreadTicks: z.number().int().min(1).default(2),
  /** Distance between two quote levels, in price steps. */
  levelTicks: z.number().int().min(1).default(1),
  /** Size range of one synthetic order, in the stock asset. */
  minSize: zDec,
  maxSize: zDec,
});

const flowSchema = z.strictObject({
  /** The internal account whose orders make the synthetic market. */
  account: z.string().min(1),
  /** Period at which the HTTP layer calls `flow.step` (ms of real time). */
  stepMs: z.number().int().min(10).default(250),
  markets: z.record(z.string(), marketFlowSchema).prefault({}),
});

const planSchema = z.strictObject({
  ticker: zTicker,
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(1),
  percent: zNonNegDec,
  /** Minutes. */
  duration: z.number().int().min(1),
  interestTicker: zTicker,
  interestRatio: zNonNegDec.prefault('1'),
  minInvestment: zNonNegDec,
  maxInvestment: zNonNegDec,
  maxPossibleInvestment: zNonNegDec,
});

const investmentsSchema = z.strictObject({
  seed: z.number().int().default(7),
  plans: z.array(planSchema).default([]),
  /** Seeded investment records generated per non-internal account. */
  recordsPerAccount: z.number().int().min(0).max(1000).default(12),
});

const historySchema = z.strictObject({
  /** Finished orders kept per account (client order ids stay "used" forever). */
  maxFinishedOrders: z.number().int().min(10).default(10_000),
  /** Deals kept per account. */
  maxDeals: z.number().int().min(10).default(10_000),
});

export const SimConfigSchema = z.strictObject({
  markets: z.array(marketSchema).min(1),
  accounts: z.array(accountSchema).min(1),
  flow: flowSchema.optional(),
  investments: investmentsSchema.prefault({}),
  history: historySchema.prefault({}),
  /** Runs the synthetic flow N times faster than real time (tests use > 1). */
  speed: z.number().min(0.01).max(10_000).default(1),
});

export type SimConfig = z.output<typeof SimConfigSchema>;
export type SimConfigInput = z.input<typeof SimConfigSchema>;
export type SimMarketConfig = SimConfig['markets'][number];
export type SimAccountConfig = SimConfig['accounts'][number];
export type SimMarketFlowConfig = z.output<typeof marketFlowSchema>;

/** The raw default (what config/sim.yaml also spells out). */
export const DEFAULT_SIM_CONFIG_INPUT: SimConfigInput = {
  markets: [
    {
      name: 'BTC_USDT',
      stock: 'BTC',
      money: 'USDT',
      stockPrec: 6,
      moneyPrec: 2,
      minAmount: '0.001',
      minTotal: '5.05',
      maxTotal: '0',
      makerFee: '0.1',
      takerFee: '0.1',
    },
    {
      name: 'ETH_USDT',
      stock: 'ETH',
      money: 'USDT',
      stockPrec: 4,
      moneyPrec: 2,
      minAmount: '0.001',
      minTotal: '5.05',
      maxTotal: '0',
      makerFee: '0.1',
      takerFee: '0.1',
    },
  ],
  accounts: [
    { name: 'alice', partner: true, trade: { BTC: '10', ETH: '100', USDT: '1000000' }, main: { BTC: '1', ETH: '10', USDT: '10000' } },
    { name: 'bob', partner: false, trade: { BTC: '10', ETH: '100', USDT: '1000000' }, main: { BTC: '1', ETH: '10', USDT: '10000' } },
    { name: 'market', internal: true, trade: { BTC: '100000', ETH: '1000000', USDT: '10000000000' } },
  ],
  flow: {
    account: 'market',
    stepMs: 250,
    markets: {
      BTC_USDT: { seed: 11, mid: '30000', volatility: 0.0001, halfSpreadTicks: 50, levelTicks: 100, minSize: '0.001', maxSize: '0.5' },
      ETH_USDT: { seed: 23, mid: '2000', volatility: 0.00012, halfSpreadTicks: 5, levelTicks: 10, minSize: '0.01', maxSize: '5' },
    },
  },
  investments: {
    seed: 7,
    plans: [
      { ticker: 'USDT', percent: '8', duration: 43200, interestTicker: 'USDT', minInvestment: '100', maxInvestment: '100000', maxPossibleInvestment: '50000' },
      { ticker: 'BTC', percent: '3', duration: 129600, interestTicker: 'BTC', minInvestment: '0.01', maxInvestment: '10', maxPossibleInvestment: '5' },
      {
        ticker: 'ETH',
        status: 2,
        percent: '4',
        duration: 86400,
        interestTicker: 'ETH',
        minInvestment: '0.1',
        maxInvestment: '100',
        maxPossibleInvestment: '0',
      },
    ],
    recordsPerAccount: 12,
  },
  speed: 1,
};

export const DEFAULT_SIM_CONFIG: SimConfig = SimConfigSchema.parse(DEFAULT_SIM_CONFIG_INPUT);

/** Validates a parsed object (e.g. from YAML); throws ConfigError naming each path and expectation. */
export function parseSimConfig(value: unknown, source = 'sim config'): SimConfig {
  const result = SimConfigSchema.safeParse(value);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${source}: ${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new ConfigError(lines.join('\n'), { cause: result.error });
  }
  checkConsistency(result.data, source);
  return result.data;
}

/** Parses YAML text holding a sim config. */
export function loadSimConfigText(text: string, source = 'sim config'): SimConfig {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`${source}: invalid YAML: ${(error as Error).message}`, { cause: error });
  }
  return parseSimConfig(value, source);
}

/** Cross-field rules zod cannot see (names that must refer to each other). */
function checkConsistency(config: SimConfig, source: string): void {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const [i, m] of config.markets.entries()) {
    if (names.has(m.name)) problems.push(`markets.${i}.name: duplicate market ${m.name}`);
    names.add(m.name);
    if (m.name !== `${m.stock}_${m.money}`) problems.push(`markets.${i}.name: expected ${m.stock}_${m.money}`);
  }
  const accounts = new Set<string>();
  const keys = new Set<string>();
  for (const [i, a] of config.accounts.entries()) {
    if (accounts.has(a.name)) problems.push(`accounts.${i}.name: duplicate account ${a.name}`);
    accounts.add(a.name);
    if ((a.apiKey === undefined) !== (a.apiSecret === undefined)) problems.push(`accounts.${i}: give both apiKey and apiSecret, or neither`);
    if (a.apiKey !== undefined && keys.has(a.apiKey)) problems.push(`accounts.${i}.apiKey: duplicate key`);
    if (a.apiKey !== undefined) keys.add(a.apiKey);
  }
  if (config.flow !== undefined) {
    if (!accounts.has(config.flow.account)) problems.push(`flow.account: unknown account ${config.flow.account}`);
    for (const [name, f] of Object.entries(config.flow.markets)) {
      if (!names.has(name)) problems.push(`flow.markets.${name}: unknown market`);
      if (f.minSize.gt(f.maxSize) || f.minSize.lte(0)) problems.push(`flow.markets.${name}: expected 0 < minSize <= maxSize`);
      if (f.mid.lte(0)) problems.push(`flow.markets.${name}.mid: expected > 0`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `${source}: ${p}`).join('\n'));
}
