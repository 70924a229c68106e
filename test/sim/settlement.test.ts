import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualExchange } from '../../backtest/replay/virtual-exchange.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import type { Balances } from '../../src/model/balance.js';
import { D, type Decimal, fmt, ZERO } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { Deal, Order, Side } from '../../src/model/order.js';
import { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { Ledger } from '../../src/sim/ledger.js';
import { Settlement } from '../../src/sim/settlement.js';
import { parseSimConfig } from '../../src/sim/sim-config.js';

/**
 * One settlement, two users: the same random stream of places (limit, post-only, ioc, rpi, stop-limit), cancels,
 * book moves and market trades drives the sim's matching engine and the backtest's virtual exchange. In the sim the
 * market is an account of the ledger ('m': it re-quotes the book and takes with ioc orders for the trades); in the
 * virtual exchange it is the recording, outside the ledger, so there the fills' own amounts and prices (amount ×
 * price, in Decimal, not the settlement's notional) say what the counterparty gave and took. Per asset, after every
 * step: balances (available + freeze) + fees collected (− the outside counterparty's flow) = the initial balances;
 * no available and no freeze below zero; every fee is its deal × the maker or taker rate; once every order has
 * ended (all cancelled), nothing is locked.
 */
const M = 'BTC_USDT';
const ASSETS = ['BTC', 'USDT'] as const;
const TRADERS = ['a', 'b'] as const;
const ACCOUNTS = [...TRADERS, 'm'] as const;
const START_MS = 1_700_000_000_000;

type Flag = 'none' | 'postOnly' | 'ioc' | 'rpi' | 'stop';
type Command =
  | { kind: 'place'; trader: number; side: Side; lots: number; tick: number; flag: Flag; actTick: number }
  | { kind: 'cancel'; trader: number; pick: number }
  | { kind: 'book'; mid: number; spread: number; depth: readonly number[] }
  | { kind: 'trade'; tick: number; lots: number; takerSide: Side };

const side = fc.constantFrom<Side>('buy', 'sell');
// amounts in steps of 10^-6 BTC from the 0.001 minimum; prices within a few ticks of 1000.00
const lots = fc.integer({ min: 1_000, max: 300_000 });
const tick = fc.integer({ min: -6, max: 6 });
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      trader: fc.integer({ min: 0, max: 1 }),
      side,
      lots,
      tick,
      flag: fc.constantFrom<Flag>('none', 'none', 'postOnly', 'ioc', 'rpi', 'stop'),
      actTick: tick,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader: fc.integer({ min: 0, max: 1 }), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('book' as const),
      mid: fc.integer({ min: -4, max: 4 }),
      spread: fc.integer({ min: 1, max: 3 }),
      depth: fc.array(lots, { minLength: 3, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('trade' as const), tick, lots, takerSide: side }) },
);
// maker/taker percent: none, the usual, maker above taker, fractions of a basis point
const fees = fc.constantFrom(['0', '0'], ['0.1', '0.2'], ['0.2', '0.1'], ['0.075', '0.1'], ['0.001', '0.0015']);

const price = (t: number): Decimal => D(1000).add(D(t).div(100));
const amount = (l: number): Decimal => D(l).div(1_000_000);
const TRADER_FUNDS = { BTC: '1.5', USDT: '1500' };

function buildSim(makerFee: string, takerFee: string): { ex: SimExchange; clock: { now: number } } {
  const clock = { now: START_MS };
  const config = parseSimConfig({
    markets: [{ name: M, stock: 'BTC', money: 'USDT', stockPrec: 6, moneyPrec: 2, minAmount: '0.001', minTotal: '1', makerFee, takerFee }],
    // small trader balances, so that places are refused for balance as well as filled
    accounts: [...TRADERS.map((name) => ({ name, trade: TRADER_FUNDS })), { name: 'm', trade: { BTC: '100', USDT: '1000000' } }],
  });
  return { ex: new SimExchange(config, () => clock.now), clock };
}

/** The book levels of a `book` command: three a side from the best bid `mid` and the best ask `mid + spread`. */
function levels(c: Extract<Command, { kind: 'book' }>): { bids: [string, string][]; asks: [string, string][] } {
  const at = (t: number, l: number): [string, string] => [price(t).toFixed(2), amount(l).toFixed()];
  return { bids: c.depth.map((l, k) => at(c.mid - k, l)), asks: c.depth.map((l, k) => at(c.mid + c.spread + k, l)) };
}

function runSim(ex: SimExchange, clock: { now: number }, c: Command): void {
  clock.now += 1000;
  switch (c.kind) {
    case 'place': {
      const o = { market: M, side: c.side, amount: amount(c.lots), price: price(c.tick) };
      const account = TRADERS[c.trader]!;
      if (c.flag === 'stop') ex.placeStopLimit(account, { ...o, activationPrice: price(c.actTick) });
      else ex.placeLimit(account, { ...o, postOnly: c.flag === 'postOnly', ioc: c.flag === 'ioc', rpi: c.flag === 'rpi' });
      break;
    }
    case 'cancel': {
      const open = ex.openOrders(TRADERS[c.trader]!, { limit: 1000 });
      if (open.length > 0) ex.cancel(TRADERS[c.trader]!, M, { orderId: open[c.pick % open.length]!.orderId });
      break;
    }
    case 'book': {
      // the market re-quotes: its levels trade with whatever of the traders' they cross
      ex.cancelAll('m', M);
      const { bids, asks } = levels(c);
      for (const [p, a] of [...bids, ...asks].map(([p, a]) => [D(p), D(a)] as const)) {
        ex.placeLimit('m', { market: M, side: p.lte(price(c.mid)) ? 'buy' : 'sell', amount: a, price: p });
      }
      break;
    }
    case 'trade':
      ex.placeLimit('m', { market: M, side: c.takerSide, amount: amount(c.lots), price: price(c.tick), ioc: true });
      break;
  }
}

function runVirtual(ve: VirtualExchange, clock: { now: number }, c: Command): void {
  clock.now += 1000;
  switch (c.kind) {
    case 'place': {
      const o = { market: M, side: c.side, amount: amount(c.lots), price: price(c.tick) };
      if (c.flag === 'stop') ve.placeStopLimit({ ...o, activationPrice: price(c.actTick) });
      else ve.placeLimit({ ...o, postOnly: c.flag === 'postOnly', ioc: c.flag === 'ioc', rpi: c.flag === 'rpi' });
      break;
    }
    case 'cancel': {
      const open = ve.openOrders({ limit: 1000 });
      if (open.length > 0) ve.cancel({ orderId: open[c.pick % open.length]!.orderId });
      break;
    }
    case 'book':
      ve.onSnapshot(new RecordedSnapshot(clock.now, { ticker_id: M, timestamp: Math.floor(clock.now / 1000), ...levels(c) }, 100));
      break;
    case 'trade':
      ve.onTrade({ t: clock.now, priceTicks: 100_000 + c.tick, amount: amount(c.lots), takerSide: c.takerSide }, price(c.tick));
      break;
  }
}

const sum = (xs: readonly Decimal[]): Decimal => xs.reduce((s, x) => s.add(x), ZERO);

/** Every fee is the deal × its role's rate, exactly; the deal is amount × price. */
function checkFees(deals: readonly Deal[], market: Market): void {
  for (const d of deals) {
    expect(fmt(d.deal)).toBe(fmt(d.amount.mul(d.price)));
    expect(fmt(d.fee)).toBe(fmt(d.deal.mul(d.role === 'maker' ? market.makerFee : market.takerFee)));
  }
}

/** No available and no freeze below zero; with `ended`, nothing frozen either. */
function checkCells(balances: readonly Balances[], ended: boolean): void {
  for (const b of balances) {
    for (const asset of ASSETS) {
      expect(b[asset]!.available.gte(0)).toBe(true);
      expect(b[asset]!.freeze.gte(0)).toBe(true);
      if (ended) expect(fmt(b[asset]!.freeze)).toBe('0');
    }
  }
}

function checkSim(ex: SimExchange, market: Market, initial: Readonly<Record<string, Decimal>>, ended = false): void {
  const balances = ACCOUNTS.map((a) => ex.tradeBalances(a));
  checkCells(balances, ended);
  for (const asset of ASSETS) {
    const held = sum(balances.map((b) => b[asset]!.available.add(b[asset]!.freeze)));
    expect(fmt(held.add(ex.feesCollected(asset)))).toBe(fmt(initial[asset]!));
  }
  const deals = ACCOUNTS.flatMap((a) => ex.deals(a, { limit: 1_000_000 }));
  checkFees(deals, market);
  expect(fmt(ex.feesCollected('USDT'))).toBe(fmt(sum(deals.map((d) => d.fee))));
}

function checkVirtual(ve: VirtualExchange, market: Market, ended = false): void {
  const b = ve.tradeBalances();
  checkCells([b], ended);
  const fills = ve.fills;
  const signed = (d: Deal, x: Decimal): Decimal => (d.side === 'buy' ? x : x.neg());
  // what the recorded market gave (stock on our buys) and took (money on our buys), from the fills' own figures
  const stockIn = sum(fills.map((d) => signed(d, d.amount)));
  const moneyOut = sum(fills.map((d) => signed(d, d.amount.mul(d.price))));
  const fees = ve.ledger.feesCollected('USDT');
  expect(fmt(b.BTC!.available.add(b.BTC!.freeze).sub(stockIn))).toBe(TRADER_FUNDS.BTC);
  expect(fmt(b.USDT!.available.add(b.USDT!.freeze).add(fees).add(moneyOut))).toBe(TRADER_FUNDS.USDT);
  expect(fmt(ve.ledger.feesCollected('BTC'))).toBe('0');
  checkFees(fills, market);
  expect(fmt(fees)).toBe(fmt(sum(fills.map((d) => d.fee))));
}

describe('the one settlement (sim matching engine and backtest virtual exchange)', () => {
  it('conserves every asset, never overdraws, charges the fee rules and releases every lock, in both users (property)', () => {
    fc.assert(
      fc.property(
        fees,
        fc.constantFrom<FillAssumption>('optimistic', 'pessimistic'),
        fc.boolean(),
        fc.array(command, { minLength: 1, maxLength: 80 }),
        ([makerFee, takerFee], assumption, hasTrades, commands) => {
          const { ex, clock } = buildSim(makerFee, takerFee);
          const market = ex.markets.get(M)!;
          const initial = Object.fromEntries(ASSETS.map((a) => [a, sum(ACCOUNTS.map((acc) => ex.tradeBalances(acc)[a]!.available))]));
          const veClock = { now: START_MS };
          const ve = new VirtualExchange({
            market,
            assumption,
            hasTrades,
            balances: { BTC: D(TRADER_FUNDS.BTC), USDT: D(TRADER_FUNDS.USDT) },
            now: () => veClock.now,
          });
          for (const c of commands) {
            runSim(ex, clock, c);
            checkSim(ex, market, initial);
            runVirtual(ve, veClock, c);
            checkVirtual(ve, market);
          }
          // every order ends: nothing may stay locked
          for (const a of ACCOUNTS) ex.cancelAll(a);
          for (const o of ve.openOrders({ limit: 1_000_000 })) ve.cancel({ orderId: o.orderId });
          expect(ve.openOrders({ limit: 1_000_000 })).toEqual([]);
          checkSim(ex, market, initial, true);
          checkVirtual(ve, market, true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the stream fills in both users: partly and fully, as maker and as taker (the property is not vacuous)', () => {
    const seen = { sim: new Set<string>(), virtual: new Set<string>() };
    const note = (into: Set<string>, deals: readonly Deal[], orders: readonly Order[]): void => {
      for (const d of deals) into.add(d.role);
      for (const o of orders) if (o.dealStock.gt(0)) into.add(o.left.isZero() ? 'full' : 'partial');
    };
    fc.assert(
      fc.property(fc.array(command, { minLength: 40, maxLength: 80 }), (commands) => {
        const { ex, clock } = buildSim('0.1', '0.2');
        const veClock = { now: START_MS };
        const ve = new VirtualExchange({
          market: ex.markets.get(M)!,
          assumption: 'optimistic',
          hasTrades: true,
          balances: { BTC: D('1.5'), USDT: D('1500') },
          now: () => veClock.now,
        });
        const veOrders: Order[] = [];
        for (const c of commands) {
          runSim(ex, clock, c);
          runVirtual(ve, veClock, c);
          veOrders.push(...ve.openOrders({ limit: 1000 }));
        }
        for (const a of TRADERS) note(seen.sim, ex.deals(a, { limit: 1_000_000 }), ex.finishedOrders(a));
        note(seen.virtual, ve.fills, veOrders);
      }),
      { numRuns: 30 },
    );
    expect([...seen.sim].sort()).toEqual(['full', 'maker', 'partial', 'taker']);
    // an order partly filled shows while open; a full fill shows in its deals (the virtual exchange keeps no history)
    expect([...seen.virtual].sort()).toEqual(['maker', 'partial', 'taker']);
  });
});

describe('Settlement', () => {
  const market: Market = {
    name: M,
    stock: 'BTC',
    money: 'USDT',
    stockPrec: 6,
    moneyPrec: 2,
    minAmount: D('0.001'),
    minTotal: D('1'),
    maxTotal: null,
    makerFee: D('0.001'),
    takerFee: D('0.002'),
    tradesEnabled: true,
  };
  const setup = () => {
    const ledger = new Ledger(['BTC', 'USDT'], 11);
    ledger.openAccount('x', { BTC: D('1'), USDT: D('1000') }, {});
    return { ledger, s: new Settlement(market, ledger) };
  };
  const cell = (ledger: Ledger, asset: string) => ledger.tradeBalances('x')[asset]!;

  it('a buy locks notional + fee at the highest rate it can pay (the maker rate when it can only make), and a fill spends deal + its role fee', () => {
    const { ledger, s } = setup();
    const units = ledger.units(D('0.5'));
    const hold = s.lock('x', 'buy', units, 100_000n, false)!; // 0.5 @ 1000.00, may take: 500 × 1.002
    expect(fmt(ledger.decimal(hold.lockU))).toBe('501');
    expect(fmt(ledger.decimal(setup().s.lock('x', 'buy', units, 100_000n, true)!.lockU))).toBe('500.5');
    const half = ledger.units(D('0.25'));
    // filled as maker at 990.00 (an order that rests and is reached lower): deal 247.5, fee 0.2475
    expect(fmt(ledger.decimal(s.fill(hold, half, s.notional(half, 99_000n), 'maker')))).toBe('0.2475');
    expect(fmt(ledger.decimal(hold.lockU))).toBe(fmt(D('501').sub('247.7475')));
    s.release(hold);
    expect(hold.lockU).toBe(0n);
    expect(fmt(cell(ledger, 'USDT').available)).toBe(fmt(D('1000').sub('247.7475')));
    expect(fmt(cell(ledger, 'USDT').freeze)).toBe('0');
    expect(fmt(cell(ledger, 'BTC').available)).toBe('1.25');
    expect(fmt(ledger.feesCollected('USDT'))).toBe('0.2475');
  });

  it('a sell locks its stock and receives deal − fee; a short balance locks nothing', () => {
    const { ledger, s } = setup();
    expect(s.lock('x', 'sell', ledger.units(D('1.000001')), 100_000n, false)).toBeUndefined();
    expect(fmt(cell(ledger, 'BTC').available)).toBe('1');
    const hold = s.lock('x', 'sell', ledger.units(D('1')), 100_000n, false)!;
    expect(fmt(ledger.decimal(s.fill(hold, hold.lockU, s.notional(hold.lockU, 100_001n), 'taker')))).toBe('2.00002');
    expect(hold.lockU).toBe(0n);
    expect(fmt(cell(ledger, 'USDT').available)).toBe(fmt(D('1000').add('1000.01').sub('2.00002')));
    expect(fmt(cell(ledger, 'BTC').available)).toBe('0');
    expect(fmt(cell(ledger, 'BTC').freeze)).toBe('0');
  });

  it('refuses a ledger whose units are too coarse for the market', () => {
    const ledger = new Ledger(['BTC', 'USDT'], 10);
    expect(() => new Settlement(market, ledger)).toThrow(/ledger scale 10 too small for BTC_USDT \(needs 11\)/);
  });
});
