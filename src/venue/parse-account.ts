import { z } from 'zod';
import type { AssetInfo, CreatedCode } from './account-records.js';
import { parseShape, zDecimal } from './parse-shape.js';

/** Ping: `["pong"]` means operational; any other array means not. */
export function parsePing(raw: unknown, endpoint = '/api/v4/public/ping'): boolean {
  const w = parseShape(z.array(z.unknown()), raw, endpoint, 'ping answer');
  return w.length === 1 && w[0] === 'pong';
}

const assetSchema = z.object({
  name: z.string(),
  can_deposit: z.boolean(),
  can_withdraw: z.boolean(),
  min_withdraw: zDecimal.optional(),
  max_withdraw: zDecimal.optional(),
  maker_fee: zDecimal.optional(),
  taker_fee: zDecimal.optional(),
});

/** Public assets, keyed by ticker. */
export function parseAssets(raw: unknown, endpoint = '/api/v4/public/assets'): Record<string, AssetInfo> {
  const w = parseShape(z.record(z.string(), assetSchema), raw, endpoint, 'assets list');
  return Object.fromEntries(
    Object.entries(w).map(([ticker, a]) => [
      ticker,
      {
        ticker,
        name: a.name,
        canDeposit: a.can_deposit,
        canWithdraw: a.can_withdraw,
        ...(a.min_withdraw !== undefined ? { minWithdraw: a.min_withdraw } : {}),
        ...(a.max_withdraw !== undefined ? { maxWithdraw: a.max_withdraw } : {}),
        ...(a.maker_fee !== undefined ? { makerFee: a.maker_fee } : {}),
        ...(a.taker_fee !== undefined ? { takerFee: a.taker_fee } : {}),
      } satisfies AssetInfo,
    ]),
  );
}

const codeSchema = z.object({ code: z.string().min(1), message: z.string(), external_id: z.union([z.string(), z.number()]).transform(String) });

/** Code creation result. The code is a bearer secret: the caller prints it once and never logs it. */
export function parseCreatedCode(raw: unknown, endpoint = '/api/v4/main-account/codes'): CreatedCode {
  const w = parseShape(codeSchema, raw, endpoint, 'code creation result');
  return { code: w.code, message: w.message, externalId: w.external_id };
}
