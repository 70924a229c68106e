import { SimExchange } from '../../src/sim/exchange.js';
import { parseSimConfig, type SimConfigInput } from '../../src/sim/sim-config.js';

/** A small exchange for unit tests: BTC_USDT (6/2 decimals), accounts a, b, c funded, no flow, fixed clock. */
export function makeExchange(overrides: { makerFee?: string; takerFee?: string; config?: Partial<SimConfigInput> } = {}): {
  ex: SimExchange;
  clock: { now: number };
} {
  const clock = { now: 1_700_000_000_000 };
  const funds = { BTC: '100', USDT: '10000000' };
  const input: SimConfigInput = {
    markets: [
      { name: 'BTC_USDT', stock: 'BTC', money: 'USDT', stockPrec: 6, moneyPrec: 2, minAmount: '0.001', minTotal: '5.05', makerFee: overrides.makerFee ?? '0.1', takerFee: overrides.takerFee ?? '0.2' },
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
