import { parseDecimal } from '../model/decimal.js';
import { MSG } from './messages.js';
import { RULE_CODES, type RuleViolation } from './violation.js';

/** The code endpoint's amount precision (api-v4.md "Other constants"). */
export const CODE_AMOUNT_DECIMALS = 8;

/**
 * Amount of a redeemable code: present, numeric, > 0, at most 8 decimal places (code 0, key `amount`).
 * Places are counted on the value, so `"1.50000000000"` is accepted as 1.5; the balance check is the
 * caller's (it is an inner validation, code 5).
 */
export function validateCodeAmount(amount: unknown): RuleViolation[] {
  const v = (message: string): RuleViolation[] => [{ code: RULE_CODES.code, field: 'amount', message }];
  if (amount === undefined || amount === null || amount === '') return v(MSG.required('amount'));
  const a = parseDecimal(amount);
  if (a === undefined) return v(MSG.amountNotNumber);
  if (a.lte(0)) return v(MSG.amountNotPositive);
  if (a.decimalPlaces() > CODE_AMOUNT_DECIMALS) return v(MSG.codeAmountDecimals);
  return [];
}
