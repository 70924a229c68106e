import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Decimal, fmt } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { parseSimConfig } from '../../src/sim/sim-config.js';
import type { StpInput } from '../../src/sim/sim-types.js';

const M = 'BTC_USDT';
const ACCOUNTS = ['a', 'b', 'c'] as const;
const ASSETS = ['BTC', 'USDT'] as const;

type Command =
  | { kind: 'limit'; account: number; side: 'buy' | 'sell'; lots: number; tick: number; flag: 'none' | 'postOnly' | 'ioc' | 'rpi'; stp: StpInput }
  | { kind: 'stop'; account: number; side: 'buy' | 'sell'; lots: number; tick: number; actTick: number; stp: StpInput }
  | { kind: 'cancel'; account: number; pick: number }
  | { kind: 'transfer'; account: number; asset: number; lots: number; toMain: boolean }
  | { kind: 'tick'; ms: number };

const stp = fc.constantFrom<StpInput>('no', 'cancel_both', 'cancel_new', 'cancel_old', 'cb', 'cn', 'co');
const account = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const side = fc.constantFrom<'buy' | 'sell'>('buy', 'sell');
// Amounts in steps of 10^-6 BTC from the 0.001 minimum upwards; prices within a few ticks of 1000.
const lots = fc.integer({ min: 1_000, max: 400_000 });
const tick = fc.integer({ min: -6, max: 6 });

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      account,
      side,
      lots,
      tick,
      flag: fc.constantFrom('none', 'none', 'postOnly', 'ioc', 'rpi'),
      stp,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stop' as const), account, side, lots, tick, actTick: tick, stp }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('transfer' as const), account, asset: fc.integer({ min: 0, max: 1 }), lots, toMain: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 5_000 }) }) },
);

const fees = fc.constantFrom(['0', '0'], ['0.1', '0.2'], ['0.075', '0.1'], ['0.2', '0.1'], ['0.001', '0.0015']);

function build(makerFee: string, takerFee: string): { ex: SimExchange; clock: { now: number } } {
  const clock = { now: 1_700_000_000_000 };
  const config = parseSimConfig({
    markets: [{ name: M, stock: 'BTC', money: 'USDT', stockPrec: 6, moneyPrec: 2, minAmount: '0.001', minTotal: '1', makerFee, takerFee }],
    // Small balances so that rejections for balance happen as well as fills.
    accounts: ACCOUNTS.map((name) => ({ name, trade: { BTC: '1.5', USDT: '1500' }, main: { BTC: '0.1', USDT: '100' } })),
  });
  return { ex: new SimExchange(config, () => clock.now), clock };
}

function run(ex: SimExchange, clock: { now: number }, c: Command): void {
  const price = (t: number): Decimal => D(1000).add(D(t).div(100));
  const amount = (l: number): Decimal => D(l).div(1_000_000);
  switch (c.kind) {
    case 'limit':
      ex.placeLimit(ACCOUNTS[c.account]!, {
        market: M,
        side: c.side,
        amount: amount(c.lots),
        price: price(c.tick),
        stp: c.stp,
        postOnly: c.flag === 'postOnly',
        ioc: c.flag === 'ioc',
        rpi: c.flag === 'rpi',
      });
      break;
    case 'stop':
      ex.placeStopLimit(ACCOUNTS[c.account]!, {
        market: M,
        side: c.side,
        amount: amount(c.lots),
        price: price(c.tick),
        activationPrice: price(c.actTick),
        stp: c.stp,
      });
      break;
    case 'cancel': {
      const open = ex.openOrders(ACCOUNTS[c.account]!, { limit: 100 });
      if (open.length > 0) ex.cancel(ACCOUNTS[c.account]!, M, { orderId: open[c.pick % open.length]!.orderId });
      break;
    }
    case 'transfer':
      ex.transfer(ACCOUNTS[c.account]!, ASSETS[c.asset]!, amount(c.lots), c.toMain ? 'spot' : 'main', c.toMain ? 'main' : 'spot');
      break;
    case 'tick':
      clock.now += c.ms;
      ex.tick(clock.now);
      break;
  }
}

function allDeals(ex: SimExchange): Deal[] {
  return ACCOUNTS.flatMap((a) => ex.deals(a, { limit: 1_000_000 }));
}

function checkInvariants(ex: SimExchange, initial: Map<string, string>): void {
  for (const asset of ASSETS) expect(fmt(ex.totals(asset))).toBe(initial.get(asset));
  const top = ex.topOfBook(M);
  if (top.bid !== undefined && top.ask !== undefined) expect(top.bid.lt(top.ask)).toBe(true);
  for (const a of ACCOUNTS) {
    for (const b of Object.values(ex.tradeBalances(a))) {
      expect(b.available.gte(0)).toBe(true);
      expect(b.freeze.gte(0)).toBe(true);
    }
    const open = ex.openOrders(a, { limit: 1_000_000 });
    const finished = ex.finishedOrders(a);
    const openIds = new Set(open.map((o) => o.orderId));
    for (const o of finished) {
      expect(openIds.has(o.orderId)).toBe(false);
      expect(['FILLED', 'CANCELED']).toContain(o.status);
    }
    for (const o of open) expect(['NEW', 'PARTIALLY_FILLED']).toContain(o.status);
    for (const o of [...open, ...finished]) {
      expect(fmt(o.left.add(o.dealStock))).toBe(fmt(o.amount));
      expect(o.left.gte(0)).toBe(true);
    }
    if (open.length === 0) for (const b of Object.values(ex.tradeBalances(a))) expect(b.freeze.isZero()).toBe(true);
  }
}

function checkDeals(ex: SimExchange): void {
  const deals = allDeals(ex);
  expect(new Set(deals.map((d) => d.id)).size).toBe(deals.length);
  const orderOf = (d: Deal): Order => {
    for (const a of ACCOUNTS) {
      const o = ex.findOrder(a, d.orderId);
      if (o !== undefined) return o;
    }
    throw new Error(`deal ${d.id} names unknown order ${d.orderId}`);
  };
  // Both sides of one fill share the fill's (strictly increasing) event time.
  const byFill = new Map<number, Deal[]>();
  for (const d of deals) byFill.set(d.time, [...(byFill.get(d.time) ?? []), d]);
  for (const pair of byFill.values()) {
    expect(pair).toHaveLength(2);
    const buy = pair.find((d) => d.side === 'buy')!;
    const sell = pair.find((d) => d.side === 'sell')!;
    expect(buy).toBeDefined();
    expect(sell).toBeDefined();
    expect([buy.role, sell.role].sort()).toEqual(['maker', 'taker']);
    expect(fmt(buy.price)).toBe(fmt(sell.price));
    expect(fmt(buy.amount)).toBe(fmt(sell.amount));
    expect(orderOf(buy).price.gte(buy.price)).toBe(true); // the buyer's limit >= price
    expect(orderOf(sell).price.lte(sell.price)).toBe(true); // price >= the seller's limit
    const maker = pair.find((d) => d.role === 'maker')!;
    expect(fmt(maker.price)).toBe(fmt(orderOf(maker).price)); // fills happen at the resting order's price
  }
}

describe('ledger and matching invariants over random order flow (fast-check)', () => {
  it('conserves funds, never crosses the book, keeps orders and deals consistent', () => {
    fc.assert(
      fc.property(fees, fc.array(command, { minLength: 1, maxLength: 120 }), ([makerFee, takerFee], commands) => {
        const { ex, clock } = build(makerFee, takerFee);
        const initial = new Map(ASSETS.map((a) => [a, fmt(ex.totals(a))]));
        for (const c of commands) {
          run(ex, clock, c);
          checkInvariants(ex, initial);
        }
        checkDeals(ex);
        // Cancelling everything returns every frozen unit.
        for (const a of ACCOUNTS) for (const o of ex.openOrders(a, { limit: 1_000_000 })) ex.cancel(a, M, { orderId: o.orderId });
        for (const a of ACCOUNTS) for (const b of Object.values(ex.tradeBalances(a))) expect(b.freeze.isZero()).toBe(true);
        for (const asset of ASSETS) expect(fmt(ex.totals(asset))).toBe(initial.get(asset));
      }),
      { numRuns: 150 },
    );
  });

  it("fees collected equal the sum of the deals' fees, and each account's money moved by exactly its deals", () => {
    fc.assert(
      fc.property(fees, fc.array(command, { minLength: 1, maxLength: 80 }), ([makerFee, takerFee], commands) => {
        const { ex, clock } = build(makerFee, takerFee);
        const noTransfers = commands.filter((c) => c.kind !== 'transfer');
        for (const c of noTransfers) run(ex, clock, c);
        for (const a of ACCOUNTS) for (const o of ex.openOrders(a, { limit: 1_000_000 })) ex.cancel(a, M, { orderId: o.orderId });
        const deals = allDeals(ex);
        expect(fmt(ex.feesCollected('USDT'))).toBe(fmt(deals.reduce((s, d) => s.add(d.fee), D(0))));
        for (const a of ACCOUNTS) {
          const mine = ex.deals(a, { limit: 1_000_000 });
          const money = mine.reduce((s, d) => (d.side === 'buy' ? s.sub(d.deal).sub(d.fee) : s.add(d.deal).sub(d.fee)), D(1500));
          const stock = mine.reduce((s, d) => (d.side === 'buy' ? s.add(d.amount) : s.sub(d.amount)), D('1.5'));
          expect(fmt(ex.tradeBalances(a).USDT!.available)).toBe(fmt(money));
          expect(fmt(ex.tradeBalances(a).BTC!.available)).toBe(fmt(stock));
        }
      }),
      { numRuns: 100 },
    );
  });
});
