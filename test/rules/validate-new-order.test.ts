import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { validateNewOrder, validateOrder, type ValidateOptions } from '../../src/rules/index.js';
import { BTC_USDT } from './fixtures.js';

const field = <T>(...values: T[]): fc.Arbitrary<T | undefined> => fc.option(fc.constantFrom(...values), { nil: undefined });

/** Requests of every shape the rules tell apart: good and bad values of each field, absent ones absent. */
const request = fc.record(
  {
    market: field<unknown>('BTC_USDT', 'ETH_USDT', '', 7),
    side: field<unknown>('buy', 'sell', 'long'),
    amount: field<unknown>(D('0.01'), D('0.0005'), D('0.0100001'), D('-1'), D('100'), D('1e9'), '0.01'),
    price: field<unknown>(D('30000.01'), D('30000.001'), D('0'), D('1'), D('1e9')),
    activationPrice: field<unknown>(D('1'), D('-1'), D('30000.015')),
    clientOrderId: field<unknown>('mm-1', 'bad id', 5, ''),
    postOnly: field<unknown>(true, false, 'no'),
    ioc: field<unknown>(true, 'yes'),
    rpi: field<unknown>(true, 1),
    stp: field<unknown>('cb', 'sometimes'),
  },
  { requiredKeys: [] },
);

describe('validateNewOrder (a request the caller just built)', () => {
  it("property (seeded): gives validateOrder's violations, in its order, for every request, kind and option", () => {
    fc.assert(
      fc.property(
        request,
        fc.constantFrom<'limit' | 'stop-limit' | undefined>('limit', 'stop-limit', undefined),
        fc.boolean(),
        fc.boolean(),
        (r, kind, used, key) => {
          const options: ValidateOptions = {
            ...(kind !== undefined ? { kind } : {}),
            ...(used ? { isClientOrderIdUsed: (id: string) => id === 'mm-1' } : {}),
            ...(key ? { clientOrderIdKey: 'clientOrderId' } : {}),
          };
          // two objects of the same fields, neither validated before
          expect(validateNewOrder(BTC_USDT, { ...r }, options)).toEqual(validateOrder(BTC_USDT, { ...r }, options));
          expect(validateNewOrder(undefined, { ...r }, options)).toEqual(validateOrder(undefined, { ...r }, options));
        },
      ),
      { seed: 33, numRuns: 3000 },
    );
  });
});
