import { afterEach, describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { VenueError } from '../../src/venue/errors.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { Dialect, WirePublicTrade } from '../../src/venue/wire.js';
import type { SimHandle } from '../../src/sim/start-sim.js';
import { simAccount, useSim } from '../helpers/with-sim.js';

/**
 * GET /api/v4/public/trades/{market} through the real client against the sim over loopback HTTP, in both
 * dialects (one spelling: the live venue's), and the raw JSON the sim sends (types and the exchange's naming).
 */
describe.each<Dialect>(['contract', 'exchange'])('recent public trades through the client against the sim, %s dialect', (dialect) => {
  const sim = useSim({ dialect, flow: false });
  const open: RestClient[] = [];
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
  });
  function client(s: SimHandle, partner: boolean): RestClient {
    const acc = simAccount(s, partner);
    const c = new RestClient({ baseUrl: s.baseUrl, dialect, apiKey: acc.apiKey, apiSecret: acc.apiSecret });
    open.push(c);
    return c;
  }

  /** One trade: `maker` rests, `taker` crosses it. */
  async function trade(maker: RestClient, taker: RestClient, takerSide: 'buy' | 'sell', price: string, amount: string): Promise<void> {
    const makerSide = takerSide === 'buy' ? 'sell' : 'buy';
    await maker.placeLimit({ market: 'BTC_USDT', side: makerSide, amount: D(amount), price: D(price) });
    await taker.placeLimit({ market: 'BTC_USDT', side: takerSide, amount: D(amount), price: D(price) });
  }

  it('answers the sim’s own trades newest first, with the exchange naming (quote_volume = amount, base_volume = value, seconds, taker side)', async () => {
    const s = await sim();
    const alice = client(s, true);
    const bob = client(s, false);
    expect(await alice.publicTrades('BTC_USDT')).toEqual([]);
    const before = Math.floor(Date.now() / 1000);
    await trade(alice, bob, 'buy', '29000', '0.01');
    await trade(alice, bob, 'sell', '28990.5', '0.02');
    const after = Math.ceil(Date.now() / 1000);

    const raw = (await (await fetch(`${s.baseUrl}/api/v4/public/trades/BTC_USDT`)).json()) as WirePublicTrade[];
    expect(raw).toHaveLength(2);
    expect(Object.keys(raw[0]!).sort()).toEqual(['base_volume', 'price', 'quote_volume', 'tradeID', 'trade_timestamp', 'type']);
    expect(raw[0]).toMatchObject({ price: '28990.5', quote_volume: '0.02', base_volume: '579.81', type: 'sell' });
    expect(raw[1]).toMatchObject({ price: '29000', quote_volume: '0.01', base_volume: '290', type: 'buy' });
    expect(typeof raw[0]!.tradeID).toBe('number');
    expect(raw[0]!.tradeID).toBeGreaterThan(raw[1]!.tradeID);
    expect(Number.isInteger(raw[0]!.trade_timestamp)).toBe(true);
    expect(raw[0]!.trade_timestamp).toBeGreaterThanOrEqual(before);
    expect(raw[0]!.trade_timestamp).toBeLessThanOrEqual(after);

    const trades = await bob.publicTrades('BTC_USDT');
    expect(trades.map((t) => [t.id, fmt(t.price), fmt(t.amount), fmt(t.value), t.takerSide, t.market])).toEqual([
      [raw[0]!.tradeID, '28990.5', '0.02', '579.81', 'sell', 'BTC_USDT'],
      [raw[1]!.tradeID, '29000', '0.01', '290', 'buy', 'BTC_USDT'],
    ]);
    expect(trades[0]!.time).toBe(raw[0]!.trade_timestamp * 1000);
    expect((await bob.publicTrades('BTC_USDT', { type: 'buy' })).map((t) => t.takerSide)).toEqual(['buy']);
    expect((await bob.publicTrades('BTC_USDT', { type: 'sell' })).map((t) => fmt(t.amount))).toEqual(['0.02']);
  });

  it('keeps the last 100 of the market', async () => {
    const s = await sim();
    const alice = client(s, true);
    const bob = client(s, false);
    // one resting sell, 105 small buys against it: 105 trades
    await alice.placeLimit({ market: 'BTC_USDT', side: 'sell', amount: D('1.05'), price: D('29000') });
    for (let i = 0; i < 105; i++) await bob.placeLimit({ market: 'BTC_USDT', side: 'buy', amount: D('0.01'), price: D('29000') });
    const trades = await bob.publicTrades('BTC_USDT');
    expect(trades).toHaveLength(100);
    const ids = trades.map((t) => t.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(new Set(ids).size).toBe(100);
    expect(await bob.publicTrades('BTC_USDT', { type: 'sell' })).toEqual([]);
  });

  it('refuses an unknown market and a bad type with a typed error', async () => {
    const s = await sim();
    const alice = client(s, true);
    await expect(alice.publicTrades('NOPE_USDT')).rejects.toBeInstanceOf(VenueError);
    const bad = await fetch(`${s.baseUrl}/api/v4/public/trades/BTC_USDT?type=both`);
    expect(bad.status).toBe(422);
  });
});
