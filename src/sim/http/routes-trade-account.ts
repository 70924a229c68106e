import { fmt } from '../../model/decimal.js';
import { MSG } from '../../rules/index.js';
import type { ExecutedHistoryResponse, TradeBalanceResponse, WireDeal } from '../../venue/wire.js';
import { json, validationFailed } from './error-bodies.js';
import { dealRecord, readClientOrderId } from './dialect.js';
import { ErrorsMap, readInt, readString } from './request-fields.js';
import type { PrivateHandler } from './route-context.js';

/** trade-account/balance and trade-account/executed-history (exchange-facts §6). */

/** `{TICKER: {available, freeze}}`, every asset (zero included, as the venue does), or just `ticker`. */
export const tradeBalance: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  const ticker = errors.take('ticker', readString(body['ticker'], 'ticker'));
  const balances = ctx.exchange.tradeBalances(account.id);
  if (ticker !== undefined && balances[ticker] === undefined) errors.add('ticker', 'Currency is not available.');
  if (!errors.empty) return validationFailed(422, 30, errors.errors);
  const out: TradeBalanceResponse = {};
  for (const [asset, b] of Object.entries(balances)) {
    if (ticker !== undefined && asset !== ticker) continue;
    out[asset] = { available: fmt(b.available), freeze: fmt(b.freeze) };
  }
  return json(200, out);
};

/** The account's deals, newest first: an array with `market`, an object keyed by market without. */
export const executedHistory: PrivateHandler = (ctx, account, body) => {
  const errors = new ErrorsMap();
  let market: string | undefined;
  const rawMarket = body['market'];
  if (rawMarket !== undefined && rawMarket !== null) {
    if (typeof rawMarket === 'string' && ctx.exchange.markets.has(rawMarket)) market = rawMarket;
    else errors.add('market', MSG.marketNotAvailable);
  }
  const clientOrderId = errors.take('clientOrderId', readString(readClientOrderId(body), 'client order id'));
  const limit = errors.take('limit', readInt(body['limit'], 'limit', 1, 100, 50));
  const offset = errors.take('offset', readInt(body['offset'], 'offset', 0, 10_000, 0));
  if (!errors.empty) return validationFailed(422, errors.errors['market'] !== undefined ? 31 : 30, errors.errors);
  const deals = ctx.exchange.deals(account.id, { market, clientOrderId: clientOrderId === '' ? undefined : clientOrderId, limit, offset });
  if (market !== undefined) return json(200, deals.map(dealRecord) satisfies ExecutedHistoryResponse);
  const grouped: Record<string, WireDeal[]> = {};
  for (const deal of deals) (grouped[deal.market] ??= []).push(dealRecord(deal));
  return json(200, grouped satisfies ExecutedHistoryResponse);
};
