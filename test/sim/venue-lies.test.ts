import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { D } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';
import { FaultConfigSchema } from '../../src/sim/http/fault-config-schema.js';
import type { LieConfig } from '../../src/sim/http/lie-config.js';
import { VenueLies } from '../../src/sim/http/venue-lies.js';

/** The lies' decisions in process: seeded and replayable, a kind left out draws nothing, bad configs named by path. */
const deal = (id: number): Deal => ({
  id,
  time: 1_700_000_000 + id,
  market: 'BTC_USDT',
  side: 'buy',
  role: 'maker',
  amount: D('0.002'),
  price: D('30000'),
  deal: D('60'),
  fee: D('0.06'),
  orderId: id,
  clientOrderId: `mm-${id}`,
});
const order = (id: number): Order => ({
  orderId: id,
  clientOrderId: `mm-${id}`,
  market: 'BTC_USDT',
  side: 'buy',
  kind: 'limit',
  timestamp: 1,
  amount: D('0.002'),
  price: D('30000'),
  left: D('0.002'),
  dealStock: D('0'),
  dealMoney: D('0'),
  dealFee: D('0'),
  postOnly: true,
  ioc: false,
  rpi: false,
  stp: 'no',
  status: 'NEW',
});
const ignore = (): void => {};

/** What the lies make of 200 deals served one by one, and of 200 order answers. */
function tell(config: LieConfig, seed = 1): string[] {
  const lies = new VenueLies(config, seed, () => 0);
  const out: string[] = [];
  for (let i = 1; i <= 200; i++) {
    const shown = lies.deals('bob', [deal(i)], 0, ignore).map((d) => `${d.id}:${d.amount.toFixed()}:${d.price.toFixed()}:${d.fee.toFixed()}`);
    const answer = lies.accepted('bob', order(i), 0, 'ETH_USDT', ignore);
    out.push(
      `${shown.join(',')}|${answer.market}:${answer.amount.toFixed()}:${answer.price.toFixed()}:${answer.side}:${answer.clientOrderId}|${lies.isHidden('bob', order(i), 1)}`,
    );
  }
  return out;
}

const everything: LieConfig = {
  hiddenOpenOrders: { probability: 0.2, forMs: 100 },
  duplicateDeals: { probability: 0.2 },
  corruptDeals: { probability: 0.2, forMs: 100 },
  contradictingAnswers: { probability: 0.2 },
};

describe('VenueLies decisions', () => {
  it('a seed replays the same lies; another seed tells others', () => {
    const a = tell(everything, 7);
    expect(tell(everything, 7)).toEqual(a);
    expect(tell(everything, 8)).not.toEqual(a);
    // each kind really happens at about its probability
    const lied = (re: RegExp) => a.filter((line) => re.test(line)).length;
    expect(lied(/,/)).toBeGreaterThan(20); // a duplicate beside its original
    expect(lied(/:-0\.002:|:0:|:-30000:|:-0\.06/)).toBeGreaterThan(20); // a corrupt figure
    expect(lied(/\|true$/)).toBeGreaterThan(20);
    expect(lied(/ETH_USDT|:0\.02:|:1:buy|:sell:|x\|/)).toBeGreaterThan(20);
  });

  it('a kind left out (or at probability 0) draws no number: the others decide as before', () => {
    const onlyDeals: LieConfig = { duplicateDeals: { probability: 0.3 }, corruptDeals: { probability: 0.3, forMs: 100 } };
    const base = tell(onlyDeals);
    expect(tell({ ...onlyDeals, hiddenOpenOrders: { probability: 0 }, contradictingAnswers: { probability: 0, recordProbability: 0 } })).toEqual(base);
    // book kinds draw only when a book is asked for
    expect(tell({ ...onlyDeals, frozenBook: { perMinute: 10, forMs: 1000 } })).toEqual(base);
  });

  it('a decision stays: a deal served again shows the same duplicate id, its true record once its time is up', () => {
    let now = 0;
    const lies = new VenueLies({ duplicateDeals: { probability: 1 }, corruptDeals: { probability: 1, forMs: 50, variants: ['negative-fee'] } }, 1, () => now);
    const first = lies.deals('bob', [deal(1)], now, ignore);
    expect(first.map((d) => [d.id, d.fee.toFixed()])).toEqual([
      [1_000_000_000_000, '0.06'],
      [1, '-0.06'],
    ]);
    now = 49;
    expect(lies.deals('bob', [deal(1)], now, ignore).map((d) => [d.id, d.fee.toFixed()])).toEqual([
      [1_000_000_000_000, '0.06'],
      [1, '-0.06'],
    ]);
    now = 50;
    expect(lies.deals('bob', [deal(1)], now, ignore).map((d) => [d.id, d.fee.toFixed()])).toEqual([
      [1_000_000_000_000, '0.06'],
      [1, '0.06'],
    ]);
    // another account's deal with that id is decided on its own
    expect(lies.deals('alice', [deal(1)], now, ignore).map((d) => d.id)).toEqual([1_000_000_000_001, 1]);
    expect(lies.told.get('duplicateDeals')).toBe(2);
  });

  it('episodes are scoped to their market and account and end on time', () => {
    let now = 1_000;
    const lies = new VenueLies(undefined, 1, () => now);
    expect(lies.armed).toBe(false);
    const e = lies.startEpisode('hiddenOpenOrders', { forMs: 500, market: 'BTC_USDT', account: 'bob' });
    expect(lies.armed).toBe(true);
    expect(lies.isHidden('bob', order(1), now)).toBe(true);
    expect(lies.isHidden('alice', order(2), now)).toBe(false);
    expect(lies.isHidden('bob', { ...order(3), market: 'ETH_USDT' }, now)).toBe(false);
    now = 1_500;
    expect(lies.isHidden('bob', order(1), now)).toBe(false);
    expect(lies.isHidden('bob', order(4), now)).toBe(false);
    expect([e.startMs, e.endMs, e.source]).toEqual([1_000, 1_500, 'control']);
  });

  it('refuses an unknown kind, variant or a bad duration with a precise message', () => {
    const lies = new VenueLies();
    expect(() => lies.startEpisode('sillyBook' as never, { forMs: 1 })).toThrow("unknown lie kind 'sillyBook'");
    expect(() => lies.startEpisode('absurdBook', { forMs: 1, variants: ['times-3'] })).toThrow(
      "startEpisode('absurdBook'): unknown variant 'times-3' (known: ask-under-bid, times-10, huge)",
    );
    expect(() => lies.startEpisode('frozenBook', { forMs: -1 })).toThrow("startEpisode('frozenBook'): forMs must be >= 0 ms, got -1");
    expect(() => new VenueLies({ corruptDeals: { probability: 2 } })).toThrow('faults.lies.corruptDeals.probability must be a probability in [0, 1], got 2');
    expect(() => new VenueLies({ frozenBook: { perMinute: -1, forMs: 1 } })).toThrow('faults.lies.frozenBook.perMinute must be >= 0, got -1');
    expect(() => new VenueLies({ crossedBook: { perMinute: 1, forMs: 1, crossBy: 2 } })).toThrow(
      'faults.lies.crossedBook.crossBy must be a fraction in (0, 1), got 2',
    );
  });
});

describe('lies in the faults YAML (bot sim --faults)', () => {
  it('parses every kind as documented', () => {
    const yaml = `
seed: 3
lies:
  hiddenOpenOrders: { probability: 0.03, forMs: 16000 }
  duplicateDeals: { probability: 0.05 }
  corruptDeals: { probability: 0.05, forMs: 3000, variants: [negative-amount, negative-fee] }
  contradictingAnswers: { probability: 0.03, recordProbability: 0.002, variants: [amount, negative-left] }
  absurdBook: { perMinute: 0.5, forMs: 6000, variants: [huge] }
  crossedBook: { perMinute: 0.5, forMs: 3000, crossBy: 0.001 }
  frozenBook: { perMinute: 0.3, forMs: 12000 }
  bookOutage: { perMinute: 0.2, forMs: 20000, markets: [BTC_USDT] }
`;
    const config = FaultConfigSchema.parse(parse(yaml));
    expect(config.lies?.bookOutage).toEqual({ perMinute: 0.2, forMs: 20000, markets: ['BTC_USDT'] });
    expect(() => new VenueLies(config.lies, config.seed)).not.toThrow();
  });

  it.each([
    ['an unknown kind', { lies: { slowBook: { perMinute: 1, forMs: 1 } } }, 'slowBook'],
    ['an unknown variant', { lies: { corruptDeals: { probability: 0.1, variants: ['huge'] } } }, 'variants'],
    ['a probability above 1', { lies: { duplicateDeals: { probability: 1.5 } } }, 'probability'],
    ['a book kind without forMs', { lies: { frozenBook: { perMinute: 1 } } }, 'forMs'],
  ])('rejects %s', (_name, input, key) => {
    const result = FaultConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(key);
  });
});
