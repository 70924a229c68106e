import { randomBytes, randomUUID } from 'node:crypto';
import { validateCodeAmount } from '../rules/validate-code.js';

/** Passphrase: latin letters, digits and symbols, no whitespace, at most 25 characters (api-v4.md). */
export const PASSPHRASE_PATTERN = /^[\x21-\x7e]{1,25}$/;
export const DESCRIPTION_MAX = 280;

export const CODE_MESSAGES = {
  created: 'Code was successfully created',
  tickerRequired: 'The ticker field is required.',
  tickerInvalid: 'The selected ticker is invalid.',
  passphraseInvalid: 'The passphrase may only contain latin letters, digits and symbols, without whitespace.',
  passphraseTooLong: 'The passphrase may not be greater than 25 characters.',
  descriptionInvalid: 'The description must be a string.',
  descriptionTooLong: `The description may not be greater than ${DESCRIPTION_MAX} characters.`,
  notEnoughBalance: 'Not enough balance.',
} as const;

/**
 * Request validation of POST /main-account/codes (HTTP 400, code 0): every problem, keyed by field,
 * `{}` when valid. The balance check is separate (inner validation, 422 code 5) and done by the
 * exchange. `knownTickers`: the assets the exchange holds.
 */
export function validateCodeRequest(body: Readonly<Record<string, unknown>>, knownTickers: ReadonlySet<string>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string): void => {
    (errors[field] ??= []).push(message);
  };
  const { ticker, amount, passphrase, description } = body;
  if (ticker === undefined || ticker === null || ticker === '') add('ticker', CODE_MESSAGES.tickerRequired);
  else if (typeof ticker !== 'string' || !knownTickers.has(ticker)) add('ticker', CODE_MESSAGES.tickerInvalid);
  for (const v of validateCodeAmount(amount)) add(v.field, v.message);
  if (passphrase !== undefined && passphrase !== null) {
    if (typeof passphrase !== 'string') add('passphrase', CODE_MESSAGES.passphraseInvalid);
    else if (passphrase.length > 25) add('passphrase', CODE_MESSAGES.passphraseTooLong);
    else if (!PASSPHRASE_PATTERN.test(passphrase)) add('passphrase', CODE_MESSAGES.passphraseInvalid);
  }
  if (description !== undefined && description !== null) {
    if (typeof description !== 'string') add('description', CODE_MESSAGES.descriptionInvalid);
    else if ([...description].length > DESCRIPTION_MAX) add('description', CODE_MESSAGES.descriptionTooLong);
  }
  return errors;
}

/**
 * A fresh redeemable code: 32 random bytes (256 bits) from node:crypto, so it cannot be guessed.
 * It is a bearer secret: callers never log it.
 */
export function newCode(ticker: string): { code: string; externalId: string } {
  return { code: `${ticker}-${randomBytes(32).toString('base64url')}`, externalId: randomUUID() };
}
