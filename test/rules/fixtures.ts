import fc from 'fast-check';
import { D, Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';

/** The venue's own example market: the numbers of exchange-facts.md §4 messages. */
export const BTC_USDT: Market = {
  name: 'BTC_USDT',
  stock: 'BTC',
  money: 'USDT',
  stockPrec: 6,
  moneyPrec: 2,
  minAmount: D('0.001'),
  minTotal: D('5.05'),
  maxTotal: D('1000000'),
  makerFee: D('0.001'),
  takerFee: D('0.001'),
  tradesEnabled: true,
};

/** A positive decimal with up to `maxScale` places and a mantissa up to 10^9 (covers 1e-12 .. 1e9). */
export const decimalArb = (maxScale = 12, allowZero = false): fc.Arbitrary<Decimal> =>
  fc
    .tuple(fc.bigInt({ min: allowZero ? 0n : 1n, max: 1_000_000_000n }), fc.integer({ min: 0, max: maxScale }))
    .map(([mantissa, scale]) => new Decimal(mantissa.toString()).div(new Decimal(10).pow(scale)));

/** Markets with random precisions 0-8 and minimums (some zero, some absent/capped). */
export const marketArb: fc.Arbitrary<Market> = fc
  .record({
    stockPrec: fc.integer({ min: 0, max: 8 }),
    moneyPrec: fc.integer({ min: 0, max: 8 }),
    minAmountSteps: fc.integer({ min: 0, max: 5000 }),
    minTotal: fc.oneof(fc.constant(D(0)), decimalArb(4)),
    maxTotal: fc.option(
      decimalArb(2).map((d) => d.mul(1000)),
      { nil: null },
    ),
    minPriceSteps: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
  })
  .map((r): Market => {
    const aStep = new Decimal(10).pow(-r.stockPrec);
    const pStep = new Decimal(10).pow(-r.moneyPrec);
    return {
      name: 'GEN_MKT',
      stock: 'GEN',
      money: 'MKT',
      stockPrec: r.stockPrec,
      moneyPrec: r.moneyPrec,
      minAmount: aStep.mul(r.minAmountSteps),
      minTotal: r.minTotal,
      maxTotal: r.maxTotal,
      ...(r.minPriceSteps === undefined ? {} : { minPrice: pStep.mul(r.minPriceSteps) }),
      makerFee: D('0.001'),
      takerFee: D('0.002'),
      tradesEnabled: true,
    };
  });
