import { fmt, parseDecimal } from '../../model/decimal.js';
import { MSG } from '../../rules/index.js';
import type { CreateCodeResponse, InvestmentsResponse, MainBalanceResponse } from '../../venue/wire.js';
import { validateCodeRequest } from '../codes.js';
import { toInvestmentFilters, toWireInvestment, validateInvestmentFilters } from '../investments.js';
import { investmentsForbidden, json, privateError, validationFailed } from './error-bodies.js';
import { ErrorsMap } from './request-fields.js';
import type { PrivateHandler } from './route-context.js';

/**
 * main-account endpoints: balance, transfer, codes, smart/investments (exchange-facts §4, §6, §7).
 * Codes (and transfer, by the same pattern): 201 success, 400 request validation with code 0,
 * 422 inner validation with code 5 when the main balance is short.
 */
const NOT_ENOUGH_BALANCE = 'Not enough balance.';

/** Assets with a zero main balance are omitted (api-v4.md). */
export const mainBalance: PrivateHandler = (ctx, account) => {
  const out: MainBalanceResponse = {};
  for (const [asset, amount] of Object.entries(ctx.exchange.mainBalances(account.id))) {
    if (!amount.isZero()) out[asset] = { main_balance: fmt(amount) };
  }
  return json(200, out);
};

export const transfer: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const ticker = body['ticker'];
  if (ticker === undefined || ticker === null || ticker === '') errors.add('ticker', MSG.required('ticker'));
  else if (typeof ticker !== 'string' || !ctx.exchange.assets.has(ticker)) errors.add('ticker', 'The selected ticker is invalid.');
  const amount = parseDecimal(body['amount']);
  if (body['amount'] === undefined || body['amount'] === null) errors.add('amount', MSG.required('amount'));
  else if (amount === undefined) errors.add('amount', MSG.amountNotNumber);
  else if (amount.lte(0)) errors.add('amount', MSG.amountNotPositive);
  for (const side of ['from', 'to'] as const) {
    const v = body[side];
    if (v === undefined || v === null) errors.add(side, MSG.required(side));
    else if (v !== 'main' && v !== 'spot') errors.add(side, `The ${side} must be one of main, spot.`);
  }
  if (errors.empty && body['from'] === body['to']) errors.add('to', 'The to and from must be different.');
  if (!errors.empty || amount === undefined) return validationFailed(400, 0, errors.errors);
  const result = ctx.exchange.transfer(account.id, ticker as string, amount, body['from'] as 'main' | 'spot', body['to'] as 'main' | 'spot');
  if (result.ok) return json(201, []);
  if (result.errors['amount']?.includes(NOT_ENOUGH_BALANCE)) return privateError(422, 5, 'Inner validation failed', result.errors);
  return validationFailed(400, 0, result.errors);
};

export const codes: PrivateHandler = (ctx, account, body) => {
  const errors = validateCodeRequest(body, ctx.exchange.assets);
  if (Object.keys(errors).length > 0) return validationFailed(400, 0, errors);
  const passphrase = typeof body['passphrase'] === 'string' && body['passphrase'] !== '' ? body['passphrase'] : undefined;
  const description = typeof body['description'] === 'string' ? body['description'] : undefined;
  const amount = typeof body['amount'] === 'number' ? String(body['amount']) : (body['amount'] as string);
  const result = ctx.exchange.createCode(account.id, body['ticker'] as string, amount, passphrase, description);
  if (!result.ok && result.reason === 'validation') return validationFailed(400, 0, result.errors);
  if (!result.ok) return privateError(422, 5, 'Inner validation failed', result.errors);
  const answer: CreateCodeResponse = { code: result.code, message: result.message, external_id: result.externalId };
  return json(201, answer);
};

/** Business partners only (403 first, before any filter is looked at); bad filters → 400 code 0. */
export const investments: PrivateHandler = (ctx, account, body) => {
  if (!account.partner) return investmentsForbidden();
  const errors = validateInvestmentFilters(body, ctx.exchange.assets);
  if (Object.keys(errors).length > 0) return validationFailed(400, 0, errors);
  const filters = toInvestmentFilters(body);
  const { records } = ctx.exchange.investments(account.id, filters);
  const answer: InvestmentsResponse = { offset: filters.offset, limit: filters.limit, records: records.map(toWireInvestment) };
  return json(200, answer);
};
