import { describe, expect, it } from 'vitest';
import { fmt } from '../../src/model/decimal.js';
import { MalformedResponseError } from '../../src/venue/errors.js';
import { parsePublicTrades } from '../../src/venue/parse-public-trades.js';

const EP = '/api/v4/public/trades/BTC_USDT';
const good = { tradeID: 158056419, price: '9186.13', quote_volume: '0.0021', base_volume: '19.290873', trade_timestamp: 1594391747, type: 'sell' };

describe('parsePublicTrades', () => {
  it('reads the exchange naming: quote_volume is the amount, base_volume the value, seconds to ms', () => {
    const [t] = parsePublicTrades([good], EP, 'BTC_USDT');
    expect(t).toBeDefined();
    expect([t!.id, fmt(t!.price), fmt(t!.amount), fmt(t!.value), t!.time, t!.takerSide]).toEqual([
      158056419,
      '9186.13',
      '0.0021',
      '19.290873',
      1594391747000,
      'sell',
    ]);
  });

  it.each<[string, unknown]>([
    ['not an array', { trades: [] }],
    ['tradeID as a string', [{ ...good, tradeID: '158056419' }]],
    ['fractional tradeID', [{ ...good, tradeID: 1.5 }]],
    ['missing quote_volume', [{ ...good, quote_volume: undefined }]],
    ['price not a number', [{ ...good, price: 'abc' }]],
    ['zero amount', [{ ...good, quote_volume: '0' }]],
    ['side not buy/sell', [{ ...good, type: 'BUY' }]],
    ['timestamp as a string', [{ ...good, trade_timestamp: '1594391747' }]],
    ['null entry', [null]],
  ])('a malformed answer (%s) is a MalformedResponseError naming the endpoint', (_name, raw) => {
    expect(() => parsePublicTrades(raw, EP, 'BTC_USDT')).toThrow(MalformedResponseError);
    expect(() => parsePublicTrades(raw, EP, 'BTC_USDT')).toThrow(EP);
  });
});
