import { describe, expect, it } from 'vitest';
import type { PublicTrade } from '../../src/model/book.js';
import { D } from '../../src/model/decimal.js';
import { TradeEvidence } from '../../src/engine/trade-evidence.js';

const trade = (id: number, price: number): PublicTrade => ({
  id,
  market: 'BTC_USDT',
  time: id,
  price: D(price),
  amount: D('0.01'),
  value: D(price).times('0.01'),
  takerSide: 'buy',
});
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('TradeEvidence', () => {
  it("vouches for a mid only once the market's trades are known: near the newest trade, or anything when the market has none", async () => {
    const lists: Record<string, PublicTrade[]> = { BTC_USDT: [trade(2, 30_000), trade(1, 3e29)], ETH_USDT: [] };
    const errors: string[] = [];
    const evidence = new TradeEvidence(
      async (m) => {
        const list = lists[m];
        if (list === undefined) throw new Error(`no market ${m}`);
        return list;
      },
      D('0.1'),
      (m) => errors.push(m),
    );
    // nothing asked yet: no evidence either way
    expect(evidence.vouches('BTC_USDT', D(30_000))).toBe(false);
    for (const m of ['BTC_USDT', 'ETH_USDT', 'XRP_USDT']) evidence.request(m);
    await settle();
    // the newest trade (by id), not the first listed
    expect(evidence.vouches('BTC_USDT', D(30_500))).toBe(true);
    expect(evidence.vouches('BTC_USDT', D(3e29))).toBe(false);
    expect(evidence.explains('BTC_USDT', D(30_500))).toBe(true);
    // a market without trades: nothing contradicts its book, but nothing explains a jump either
    expect(evidence.vouches('ETH_USDT', D(2_000))).toBe(true);
    expect(evidence.explains('ETH_USDT', D(2_000))).toBe(false);
    // a failed fetch is no evidence
    expect(evidence.vouches('XRP_USDT', D(1))).toBe(false);
    expect(errors).toEqual(['XRP_USDT']);
  });
});
