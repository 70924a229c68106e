import { D, decimalParam, z } from '../../src/strategy/index.js';

/** Params of the market maker (see index.ts for what each means). */
// strict: a misspelt param (`sprad:`) is a config error, never a silent default
export const params = z.strictObject({
  spread: decimalParam({ positive: true, max: 1 }).default(D('0.002')),
  size: decimalParam({ positive: true }).default(D('0.001')),
  levels: z.number().int().min(1).max(20).default(1),
  levelSpacing: decimalParam({ min: 0, max: 1 }).default(D('0.001')),
  inventorySkew: decimalParam({ min: 0, max: 1 }).default(D('0.001')),
  maxInventory: decimalParam({ positive: true }).default(D('0.01')),
  refreshThreshold: decimalParam({ min: 0, max: 1 }).default(D('0.0005')),
  postOnly: z.boolean().default(true),
  inventoryFrom: z.enum(['fills', 'balances']).default('fills'),
  inventoryBaseline: decimalParam().optional(),
});

export type MarketMakerParams = z.output<typeof params>;
