import { D, type Decimal } from '../model/decimal.js';
import { CODE_MESSAGES, newCode, validateCodeRequest } from './codes.js';
import type { Ledger } from './ledger.js';
import type { CreateCodeResult, TransferResult } from './sim-types.js';
import { fitsScale } from './units.js';

/** Moves funds between an account's main and trade (spot) balance; a value with the reason when it cannot. */
export function transferFunds(ledger: Ledger, accountId: string, ticker: string, amount: Decimal, from: 'main' | 'spot', to: 'main' | 'spot'): TransferResult {
  const fail = (field: string, message: string): TransferResult => ({ ok: false, message, errors: { [field]: [message] } });
  if (!ledger.hasAccount(accountId)) return fail('request', 'Unknown account.');
  if (!ledger.assets.has(ticker)) return fail('ticker', 'The selected ticker is invalid.');
  if (!amount.isFinite() || amount.lte(0)) return fail('amount', 'The amount must be greater than 0.');
  if (!fitsScale(amount, ledger.scale)) return fail('amount', `The amount may have at most ${ledger.scale} decimal places.`);
  if (from === to) return fail('to', 'The to and from must be different.');
  const c = ledger.cell(accountId, ticker);
  const units = ledger.units(amount);
  if ((from === 'main' ? c.main : c.available) < units) return fail('amount', CODE_MESSAGES.notEnoughBalance);
  if (from === 'main') {
    c.main -= units;
    c.available += units;
  } else {
    c.available -= units;
    c.main += units;
  }
  return { ok: true };
}

/**
 * Creates a redeemable code from the main balance. The HTTP layer may run `validateCodeRequest` on
 * the raw body itself; the fields are validated again here so the call is safe on its own.
 * The funds move to the ledger's code pool (a created code still holds them).
 */
export function createCodeFromMain(
  ledger: Ledger,
  accountId: string,
  ticker: string,
  amount: Decimal | string,
  passphrase?: string,
  description?: string,
): CreateCodeResult {
  const body = { ticker, amount: typeof amount === 'string' ? amount : amount.toFixed(), passphrase, description };
  const errors = validateCodeRequest(body, ledger.assets);
  if (Object.keys(errors).length > 0) return { ok: false, reason: 'validation', message: 'Validation failed', errors };
  if (!ledger.hasAccount(accountId)) return { ok: false, reason: 'validation', message: 'Validation failed', errors: { request: ['Unknown account.'] } };
  const value = ledger.units(D(body.amount));
  const c = ledger.cell(accountId, ticker);
  if (c.main < value) return { ok: false, reason: 'balance', message: 'Inner validation failed', errors: { amount: [CODE_MESSAGES.notEnoughBalance] } };
  c.main -= value;
  ledger.addCode(ticker, value);
  const { code, externalId } = newCode(ticker);
  return { ok: true, code, message: CODE_MESSAGES.created, externalId };
}
