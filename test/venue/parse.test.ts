import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { MalformedResponseError } from '../../src/venue/errors.js';
import { parseAssets, parseCreatedCode, parsePing } from '../../src/venue/parse-account.js';
import { parseKillSwitch } from '../../src/venue/parse-kill-switch.js';
import { parseMainBalance, parseTradeBalance } from '../../src/venue/parse-balance.js';
import { parseOrderBook } from '../../src/venue/parse-book.js';
import { parseDeals } from '../../src/venue/parse-deal.js';
import { parseInvestments } from '../../src/venue/parse-investments.js';
import { parseMarket } from '../../src/venue/parse-market.js';
import { parseOrder, parseOrders } from '../../src/venue/parse-order.js';
import type { ContractOrderRecord, ExchangeOrderRecord, WireMarket } from '../../src/venue/wire.js';

const contract: ContractOrderRecord = {
  order_id: 4986126152,
  client_order_id: 'mm-1',
  market: 'BTC_USDT',
  side: 'sell',
  type: 'limit',
  timestamp: 1595792396.165973,
  deal_money: '0',
  deal_stock: '0',
  amount: '0.001',
  left: '0.001',
  deal_fee: '0',
  price: '40000',
  postOnly: false,
  ioc: false,
  status: 'NEW',
  stp: 'cb',
  rpi: false,
};
const exchange: ExchangeOrderRecord = {
  orderId: 4986126152,
  clientOrderId: 'mm-1',
  market: 'BTC_USDT',
  side: 'sell',
  type: 'limit',
  timestamp: 1595792396.165973,
  dealMoney: '0',
  dealStock: '0',
  amount: '0.001',
  left: '0.001',
  dealFee: '0',
  price: '40000',
  postOnly: false,
  ioc: false,
  status: 'NEW',
  stp: 'cb',
  rpi: false,
};

describe('parseOrder', () => {
  it('reads both dialects into the same domain order', () => {
    const a = parseOrder(contract);
    const b = parseOrder(exchange);
    expect(b).toEqual(a);
    expect(a.orderId).toBe(4986126152);
    expect(a.clientOrderId).toBe('mm-1');
    expect(a.stp).toBe('cancel_both');
    expect(fmt(a.price)).toBe('40000');
    expect(a.left.eq(D('0.001'))).toBe(true);
  });

  it('reads a stop-limit record and its activation price', () => {
    const o = parseOrder({ ...exchange, type: 'stop limit', activation_price: '39000' });
    expect(o.kind).toBe('stop-limit');
    expect(fmt(o.activationPrice!)).toBe('39000');
  });

  it('throws MalformedResponseError naming the field on a wrong shape', () => {
    expect(() => parseOrder({ ...contract, price: 'abc' }, '/api/v4/order/new')).toThrow(MalformedResponseError);
    expect(() => parseOrder({ ...contract, price: 'abc' })).toThrow(/price/);
    expect(() => parseOrder({ ...contract, side: 'long' })).toThrow(/side/);
    expect(() => parseOrder('<html>')).toThrow(MalformedResponseError);
    expect(() => parseOrders({})).toThrow(MalformedResponseError);
    expect(parseOrders([contract, exchange])).toHaveLength(2);
  });
});

describe('parseMarket', () => {
  const wire: WireMarket = {
    name: 'BTC_USDT',
    stock: 'BTC',
    money: 'USDT',
    stockPrec: '6',
    moneyPrec: '2',
    feePrec: '4',
    makerFee: '0.1',
    takerFee: '0.25',
    minAmount: '0.001',
    minTotal: '5.05',
    maxTotal: '0',
    tradesEnabled: true,
    isCollateral: false,
    type: 'spot',
  };
  it('turns percent fees into fractions, precisions into integers, maxTotal "0" into null', () => {
    const m = parseMarket(wire);
    expect(m.stockPrec).toBe(6);
    expect(m.moneyPrec).toBe(2);
    expect(fmt(m.makerFee)).toBe('0.001');
    expect(fmt(m.takerFee)).toBe('0.0025');
    expect(m.maxTotal).toBeNull();
    expect(fmt(parseMarket({ ...wire, maxTotal: '1000000' }).maxTotal!)).toBe('1000000');
    expect(() => parseMarket({ ...wire, stockPrec: 'six' })).toThrow(MalformedResponseError);
  });
});

describe('other parsers', () => {
  it('order book', () => {
    const b = parseOrderBook({ ticker_id: 'BTC_USDT', timestamp: 1, asks: [['30001', '0.5']], bids: [['29999', '1']] });
    expect(b.market).toBe('BTC_USDT');
    expect(fmt(b.asks[0]!.price)).toBe('30001');
    expect(fmt(b.bids[0]!.amount)).toBe('1');
    expect(() => parseOrderBook({ ticker_id: 'X', timestamp: 1, asks: [['1']], bids: [] })).toThrow(MalformedResponseError);
  });

  it('balances', () => {
    expect(fmt(parseTradeBalance({ BTC: { available: '1.5', freeze: '0.5' } }).BTC!.freeze)).toBe('0.5');
    expect(fmt(parseMainBalance({ USDT: { main_balance: '10' } }).USDT!)).toBe('10');
    expect(() => parseMainBalance({ USDT: { available: '10' } })).toThrow(MalformedResponseError);
  });

  it('deals: array or object keyed by market, newest first, role as maker/taker', () => {
    const deal = { id: 1, time: 10, side: 'buy', role: 1, amount: '1', price: '2', deal: '2', fee: '0.002', orderId: 5, clientOrderId: '' };
    expect(parseDeals([deal], 'BTC_USDT')[0]).toMatchObject({ market: 'BTC_USDT', role: 'maker', orderId: 5 });
    const all = parseDeals({ BTC_USDT: [deal], ETH_USDT: [{ ...deal, id: 2, time: 20, role: 2 }] });
    expect(all.map((d) => [d.market, d.role])).toEqual([
      ['ETH_USDT', 'taker'],
      ['BTC_USDT', 'maker'],
    ]);
    expect(() => parseDeals([{ ...deal, role: 3 }])).toThrow(MalformedResponseError);
  });

  it('investments, code, assets, ping, kill-switch', () => {
    const plan = {
      id: 'p',
      ticker: 'USDT',
      status: 1,
      percent: '8',
      duration: 10,
      interestTicker: 'USDT',
      interestRatio: '1',
      minInvestment: '1',
      maxInvestment: '2',
      maxPossibleInvestment: '2',
    };
    const page = parseInvestments({
      offset: 0,
      limit: 100,
      records: [{ id: 'i', plan, status: 1, created: 1, updated: 2, paymentTime: 3, amount: '5', interestPaid: '0.1' }],
    });
    expect(fmt(page.records[0]!.plan.percent)).toBe('8');
    expect(parseCreatedCode({ code: 'WBa', message: 'ok', external_id: 'e' })).toEqual({ code: 'WBa', message: 'ok', externalId: 'e' });
    expect(parseAssets({ BTC: { name: 'Bitcoin', can_deposit: true, can_withdraw: false, min_withdraw: '0.001' } }).BTC).toMatchObject({
      ticker: 'BTC',
      canWithdraw: false,
    });
    expect(parsePing(['pong'])).toBe(true);
    expect(parsePing([])).toBe(false);
    expect(() => parsePing({})).toThrow(MalformedResponseError);
    expect(parseKillSwitch({ market: 'BTC_USDT', startTime: 1, cancellationTime: 6 })).toEqual({
      market: 'BTC_USDT',
      startTime: 1,
      cancellationTime: 6,
      types: ['spot', 'margin', 'futures'],
    });
    expect(parseKillSwitch([])).toBeNull();
  });

  it('a malformed code answer never quotes the values it got', () => {
    try {
      parseCreatedCode({ code: 'SECRET-CODE-123', message: 5, external_id: 'e' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect(JSON.stringify({ m: (error as Error).message })).not.toContain('SECRET-CODE-123');
    }
  });
});
