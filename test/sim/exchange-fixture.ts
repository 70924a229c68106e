import { D, fmt } from '../../src/model/decimal.js';
import type { Order } from '../../src/model/order.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { parseSimConfig, type SimConfigInput } from '../../src/sim/sim-config.js';
import type { LimitOrderInput } from '../../src/sim/sim-types.js';

/** A small exchange for unit tests: BTC_USDT (6/2 decimals), accounts a, b, c funded, no flow, fixed clock. */
export function makeExchange(overrides: { makerFee?: string; takerFee?: string; config?: Partial<SimConfigInput> } = {}): {
  ex: SimExchange;
  clock: { now: number };
} {
  const clock = { now: 1_700_000_000_000 };
  const funds = { BTC: '100', USDT: '10000000' };
  const input: SimConfigInput = {
    markets: [
      {
        name: 'BTC_USDT',
        stock: 'BTC',
        money: 'USDT',
        stockPrec: 6,
        moneyPrec: 2,
        minAmount: '0.001',
        minTotal: '5.05',
        makerFee: overrides.makerFee ?? '0.1',
        takerFee: overrides.takerFee ?? '0.2',
      },
    ],
    accounts: [
      { name: 'a', partner: true, trade: funds, main: { USDT: '1000', BTC: '1' } },
      { name: 'b', trade: funds, main: { USDT: '1000' } },
      { name: 'c', trade: funds },
    ],
    ...overrides.config,
  };
  return { ex: new SimExchange(parseSimConfig(input), () => clock.now), clock };
}

export const M = 'BTC_USDT';

/** Places a limit order that must be accepted. */
export function place(ex: SimExchange, account: string, side: 'buy' | 'sell', amount: string, price: string, extra: Partial<LimitOrderInput> = {}): Order {
  const r = ex.placeLimit(account, { market: M, side, amount: D(amount), price: D(price), ...extra });
  if (!r.ok) throw new Error(`placement rejected: ${r.reason} ${r.message}`);
  return r.order;
}

/** `available/freeze` of one asset. */
export function bal(ex: SimExchange, account: string, asset: string): string {
  const b = ex.tradeBalances(account)[asset]!;
  return `${fmt(b.available)}/${fmt(b.freeze)}`;
}

/** The public book as `price x amount` strings. */
export function levels(ex: SimExchange) {
  const b = ex.book(M);
  return { asks: b.asks.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`), bids: b.bids.map((l) => `${fmt(l.price)}x${fmt(l.amount)}`) };
}
