import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, fmt, type Decimal } from '../../src/model/decimal.js';
import {
  CLIENT_ORDER_ID_PATTERN,
  toErrorsMap,
  validateOrder,
  violationCode,
  type RawOrderFields,
  type RuleViolation,
  type ValidateOptions,
} from '../../src/rules/index.js';
import { BTC_USDT, decimalArb } from './fixtures.js';

const ok: RawOrderFields = { market: 'BTC_USDT', side: 'buy', amount: '0.01', price: '30000' };
const v = (code: number, field: string, message: string): RuleViolation => ({ code, field, message });

type Row = [string, RawOrderFields, RuleViolation[], ValidateOptions?];

// One row per code and per message: the full violation list, in precedence order.
const table: Row[] = [
  ['valid limit order', ok, []],
  ['valid with plain numbers', { ...ok, amount: 0.01, price: 30000 }, []],
  ['market missing', { ...ok, market: undefined }, [v(30, 'market', 'The market field is required.')]],
  ['side missing', { ...ok, side: undefined }, [v(30, 'side', 'The side field is required.')]],
  ['amount missing', { ...ok, amount: undefined }, [v(30, 'amount', 'The amount field is required.')]],
  ['price missing', { ...ok, price: null }, [v(30, 'price', 'The price field is required.')]],
  ['side not buy|sell', { ...ok, side: 'long' }, [v(30, 'side', 'The side must be one of buy, sell.')]],
  ['total below minTotal', { ...ok, amount: '0.001', price: '5000' }, [v(30, 'total', 'Total(amount * price) is less than 5.05')]],
  ['total above maxTotal', { ...ok, amount: '100', price: '30000' }, [v(30, 'total', 'Total(amount * price) is greater than 1000000')]],
  ['ioc not boolean', { ...ok, ioc: 'yes' }, [v(30, 'ioc', 'The ioc field must be true or false.')]],
  ['stp unknown', { ...ok, stp: 'sometimes' }, [v(30, 'stp', 'The stp must be one of no, cancel_both, cancel_new, cancel_old, cb, cn, co.')]],
  ['stp short form', { ...ok, stp: 'cb' }, []],
  ['market unknown', { ...ok, market: 'DOGE_EUR' }, [v(31, 'market', 'Market is not available.')]],
  ['market empty', { ...ok, market: '' }, [v(31, 'market', 'Market is not available.')]],
  ['market not a string', { ...ok, market: 7 }, [v(31, 'market', 'The market must be a string.')]],
  ['amount not numeric', { ...ok, amount: 'abc' }, [v(32, 'amount', 'The amount must be a number.')]],
  ['amount exponent form', { ...ok, amount: '1e-2' }, [v(32, 'amount', 'The amount must be a number.')]],
  ['amount NaN number', { ...ok, amount: Number.NaN }, [v(32, 'amount', 'The amount must be a number.')]],
  ['amount below min', { ...ok, amount: '0.0009', price: '30000' }, [v(32, 'amount', 'Given amount is less than min amount 0.001')]],
  ['amount off step', { ...ok, amount: '0.0100001' }, [v(32, 'amount', 'Min amount step = 0.000001')]],
  ['amount zero', { ...ok, amount: '0' }, [v(32, 'amount', 'Given amount is less than min amount 0.001')]],
  ['price not numeric', { ...ok, price: '30,000' }, [v(33, 'price', 'The price must be a number.')]],
  ['price zero', { ...ok, price: '0' }, [v(33, 'price', 'The Price should be greater than or equal to 0.01')]],
  ['price off step', { ...ok, price: '30000.005' }, [v(33, 'price', 'Min price step = 0.01')]],
  ['client order id not a string', { ...ok, clientOrderId: 42 }, [v(36, 'client_order_id', 'The client order id must be a string.')]],
  [
    'client order id bad chars',
    { ...ok, clientOrderId: 'a b' },
    [v(36, 'client_order_id', 'The client order id may only contain latin letters, numbers and dashes.')],
  ],
  [
    'client order id with underscore',
    { ...ok, clientOrderId: 'mm_1' },
    [v(36, 'client_order_id', 'The client order id may only contain latin letters, numbers and dashes.')],
  ],
  ['client order id empty = none', { ...ok, clientOrderId: '' }, []],
  [
    'client order id used',
    { ...ok, clientOrderId: 'mm-1' },
    [v(36, 'client_order_id', 'This client order id is already used by the current account.')],
    { isClientOrderIdUsed: (id) => id === 'mm-1' },
  ],
  [
    'client order id live key',
    { ...ok, clientOrderId: 'x.y' },
    [v(36, 'clientOrderId', 'The client order id may only contain latin letters, numbers and dashes.')],
    { clientOrderIdKey: 'clientOrderId' },
  ],
  ['ioc with postOnly', { ...ok, ioc: true, postOnly: true }, [v(37, 'ioc', 'The ioc flag cannot be combined with postOnly or rpi.')]],
  ['ioc with rpi', { ...ok, ioc: true, rpi: true }, [v(37, 'ioc', 'The ioc flag cannot be combined with postOnly or rpi.')]],
  ['ioc alone', { ...ok, ioc: true, postOnly: false }, []],
  ['stop-limit valid', { ...ok, activationPrice: '29000' }, [], { kind: 'stop-limit' }],
  ['stop-limit activation missing', ok, [v(30, 'activation_price', 'The activation price field is required.')], { kind: 'stop-limit' }],
  [
    'stop-limit activation not numeric',
    { ...ok, activationPrice: 'soon' },
    [v(33, 'activation_price', 'The activation price must be a number.')],
    { kind: 'stop-limit' },
  ],
  [
    'stop-limit activation zero',
    { ...ok, activationPrice: 0 },
    [v(33, 'activation_price', 'The activation price must be greater than 0.')],
    { kind: 'stop-limit' },
  ],
  ['stop-limit ignores ioc conflict', { ...ok, activationPrice: '1', ioc: true, postOnly: true }, [], { kind: 'stop-limit' }],
];

describe('validateOrder: one row per code and message', () => {
  it.each(table)('%s', (_name, fields, expected, options) => {
    const market = typeof fields.market === 'string' && fields.market === BTC_USDT.name ? BTC_USDT : undefined;
    expect(validateOrder(market, fields, options)).toEqual(expected);
  });
});

describe('validateOrder: markets and precedence', () => {
  it('reports a market closed for trading as not available', () => {
    expect(validateOrder({ ...BTC_USDT, tradesEnabled: false }, ok)).toEqual([v(31, 'market', 'Market is not available.')]);
  });

  it('states the market own limits in its messages', () => {
    const m = { ...BTC_USDT, stockPrec: 3, moneyPrec: 4, minAmount: D('0.5'), minTotal: D('10'), minPrice: D('0.0005') };
    expect(validateOrder(m, { ...ok, amount: '0.1234', price: '0.00001' }).map((x) => x.message)).toEqual([
      'Given amount is less than min amount 0.5',
      'Min amount step = 0.001',
      'The Price should be greater than or equal to 0.0005',
      'Min price step = 0.0001',
      'Total(amount * price) is less than 10',
    ]);
  });

  it('treats a maxTotal of null as no cap', () => {
    expect(validateOrder({ ...BTC_USDT, maxTotal: null }, { ...ok, amount: '1000', price: '1000000' })).toEqual([]);
  });

  it('orders every violation by precedence: 30 shape, 31, 32, 33, 30 total, 36, 37', () => {
    const all = validateOrder(undefined, { market: 'NOPE', side: 'x', amount: 'a', price: 'b', clientOrderId: 'é', ioc: true, rpi: true });
    expect(all.map((x) => x.code)).toEqual([30, 31, 32, 33, 36, 37]);
    expect(violationCode(all)).toBe(30);
    const late = validateOrder(BTC_USDT, { ...ok, amount: '0.0001', price: '1', clientOrderId: 'a_b', ioc: true, postOnly: true });
    expect(late.map((x) => `${x.code}:${x.field}`)).toEqual(['32:amount', '30:total', '36:client_order_id', '37:ioc']);
  });

  it('builds the errors map the venue answers with', () => {
    const map = toErrorsMap(validateOrder(BTC_USDT, { ...ok, amount: '0.0000015', price: '1' }));
    expect(map).toEqual({
      amount: ['Given amount is less than min amount 0.001', 'Min amount step = 0.000001'],
      total: ['Total(amount * price) is less than 5.05'],
    });
    expect(violationCode([])).toBeUndefined();
  });

  it('client order id pattern allows letters, digits and dashes only', () => {
    expect(CLIENT_ORDER_ID_PATTERN.test('Bot-17-abc')).toBe(true);
    for (const bad of ['a.b', 'a_b', 'a b', 'ü', '', 'a\n']) expect(CLIENT_ORDER_ID_PATTERN.test(bad)).toBe(false);
  });

  it('reads a Decimal exactly as the string the venue would receive (fmt), non-finite as not a number (property)', () => {
    const num = fc.oneof(
      fc.tuple(decimalArb(10, true), fc.boolean()).map(([d, neg]) => (neg ? d.neg() : d)),
      fc.constantFrom(D(Infinity), D(-Infinity), D(NaN)),
    );
    const text = (d: Decimal) => (d.isFinite() ? fmt(d) : d.toString());
    fc.assert(
      fc.property(num, num, num, fc.constantFrom<'limit' | 'stop-limit'>('limit', 'stop-limit'), (amount, price, activationPrice, kind) => {
        const asDecimals = validateOrder(BTC_USDT, { market: 'BTC_USDT', side: 'buy', amount, price, activationPrice }, { kind });
        const asText = validateOrder(
          BTC_USDT,
          { market: 'BTC_USDT', side: 'buy', amount: text(amount), price: text(price), activationPrice: text(activationPrice) },
          { kind },
        );
        expect(asDecimals).toEqual(asText);
      }),
      { numRuns: 1500 },
    );
  });

  it('property: a Decimal is judged as its wire text (fmt) is, finite or not, signed, long or short', () => {
    const anyDecimal = fc.oneof(
      decimalArb(12, true),
      decimalArb(3).map((d) => d.neg()),
      fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e-40', '123456789012345678901234567890.5').map((t) => D(t)),
    );
    fc.assert(
      fc.property(anyDecimal, anyDecimal, fc.boolean(), (amount, price, stop) => {
        const options: ValidateOptions = { kind: stop ? 'stop-limit' : 'limit' };
        const asText = validateOrder(BTC_USDT, { ...ok, amount: fmt(amount), price: fmt(price), ...(stop ? { activationPrice: fmt(price) } : {}) }, options);
        const asDecimal = validateOrder(BTC_USDT, { ...ok, amount, price, ...(stop ? { activationPrice: price } : {}) }, options);
        expect(asDecimal).toEqual(asText);
      }),
      { numRuns: 2000 },
    );
  });
});
