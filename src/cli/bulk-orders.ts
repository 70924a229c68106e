import { z } from 'zod';
import { ConfigError } from '../model/errors.js';
import { toStpMode } from '../model/order.js';
import { zPositiveDecimal } from '../settings/decimal-schema.js';
import type { PlaceLimitRequest } from '../venue/trading-api.js';
import { BULK_MAX_ORDERS } from '../venue/wire.js';

// apart from bulk.ts so that registering `bot bulk` does not load zod: the action imports this module
const orderSchema = z.strictObject({
  market: z.string().min(1),
  side: z.enum(['buy', 'sell']),
  amount: zPositiveDecimal,
  price: zPositiveDecimal,
  clientOrderId: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'latin letters, digits and dashes')
    .optional(),
  postOnly: z.boolean().optional(),
  ioc: z.boolean().optional(),
  rpi: z.boolean().optional(),
  stp: z
    .string()
    .refine((s) => toStpMode(s) !== undefined, 'one of no, cancel_both, cancel_new, cancel_old, cb, cn, co')
    .optional(),
});
const fileSchema = z.array(orderSchema).min(1).max(BULK_MAX_ORDERS);

/** The orders file of `bot bulk`: a JSON array of 1-20 limit orders. Errors name the file, the item and the field. */
export function readBulkOrders(file: string, text: string): PlaceLimitRequest[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch {
    throw new ConfigError(`${file}: not valid JSON (expected an array of orders)`);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('') : '(root)';
    throw new ConfigError(`${file}: ${where}: ${issue.message}`);
  }
  return parsed.data.map(({ stp, ...o }): PlaceLimitRequest => ({ ...o, ...(stp !== undefined ? { stp: toStpMode(stp)! } : {}) }));
}
