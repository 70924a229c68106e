import { z } from 'zod';
import type { Investment, InvestmentsPage } from './account-records.js';
import { parseShape, zDecimal } from './parse-shape.js';

const planSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  ticker: z.string(),
  status: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  percent: zDecimal,
  duration: z.number(),
  interestTicker: z.string(),
  interestRatio: zDecimal,
  minInvestment: zDecimal,
  maxInvestment: zDecimal,
  maxPossibleInvestment: zDecimal,
});

const investmentSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  plan: planSchema,
  status: z.union([z.literal(1), z.literal(2)]),
  created: z.number(),
  updated: z.number(),
  paymentTime: z.number(),
  amount: zDecimal,
  interestPaid: zDecimal,
});

const pageSchema = z.object({
  offset: z.number().int(),
  limit: z.number().int(),
  records: z.array(investmentSchema.transform((r): Investment => r)),
});

/** Fixed-plan investment history `{offset, limit, records}`. */
export function parseInvestments(raw: unknown, endpoint = '/api/v4/main-account/smart/investments'): InvestmentsPage {
  return parseShape(pageSchema, raw, endpoint, 'investment history');
}
