import { json, publicError } from './error-bodies.js';
import { assetsRecord, bookRecord, intParam, marketRecord } from './public-format.js';
import type { PublicHandler } from './route-context.js';

/** Public GET endpoints: ping, markets, assets, order book, recent trades (exchange-facts §3, §6). */

export const ping: PublicHandler = () => json(200, ['pong']);

export const markets: PublicHandler = (ctx) => json(200, [...ctx.exchange.markets.values()].map(marketRecord));

export const assets: PublicHandler = (ctx) => json(200, assetsRecord(ctx.exchange.markets.values()));

/** `limit` 0-100 (0/absent = 100), `level` 0-5 (0 = none); cached 100 ms per (market, limit, level). */
export const orderbook: PublicHandler = (ctx, req) => {
  const name = req.market ?? '';
  if (!ctx.exchange.markets.has(name)) return publicError(ctx.dialect, 'market', 'Market is not available.');
  const limit = intParam(req.query.get('limit'), 0, 100);
  if (Number.isNaN(limit)) return publicError(ctx.dialect, 'limit', 'The limit must be an integer between 0 and 100.');
  const level = intParam(req.query.get('level'), 0, 5);
  if (Number.isNaN(level)) return publicError(ctx.dialect, 'level', 'The level must be an integer between 0 and 5.');
  const depth = limit === undefined || limit === 0 ? 100 : limit;
  const lvl = level ?? 0;
  const body = ctx.bookCache.get(`${name}|${depth}|${lvl}`, ctx.nowMs, () => bookRecord(ctx.exchange.book(name, { limit: depth, level: lvl })));
  return json(200, body);
};

/** The last 100 trades of the market, newest first, optionally of one taker side (`type`); see trade-tape.ts. */
export const publicTrades: PublicHandler = (ctx, req) => {
  const name = req.market ?? '';
  if (!ctx.exchange.markets.has(name)) return publicError(ctx.dialect, 'market', 'Market is not available.');
  const type = req.query.get('type');
  if (type !== null && type !== 'buy' && type !== 'sell') return publicError(ctx.dialect, 'type', 'The type must be buy or sell.');
  return json(200, ctx.tradeTape?.recent(name, type ?? undefined) ?? []);
};
