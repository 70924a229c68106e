import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { D, fmt } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { validateCodeRequest } from '../../src/sim/codes.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { toInvestmentFilters, toWireInvestment, validateInvestmentFilters } from '../../src/sim/investments.js';
import { DEFAULT_SIM_CONFIG, loadSimConfigText, parseSimConfig } from '../../src/sim/sim-config.js';
import { makeExchange } from './exchange-fixture.js';

const repoFile = (p: string) => new URL(`../../${p}`, import.meta.url);

describe('sim config', () => {
  it('the default has >= 2 markets and a partner, a non-partner and an internal account funded in every asset', () => {
    expect(DEFAULT_SIM_CONFIG.markets.length).toBeGreaterThanOrEqual(2);
    const assets = new Set(DEFAULT_SIM_CONFIG.markets.flatMap((m) => [m.stock, m.money]));
    const clients = DEFAULT_SIM_CONFIG.accounts.filter((a) => !a.internal);
    expect(clients.some((a) => a.partner)).toBe(true);
    expect(clients.some((a) => !a.partner)).toBe(true);
    expect(DEFAULT_SIM_CONFIG.accounts.some((a) => a.internal && a.name === DEFAULT_SIM_CONFIG.flow?.account)).toBe(true);
    for (const a of DEFAULT_SIM_CONFIG.accounts) for (const asset of assets) expect(a.trade[asset]?.gt(0)).toBe(true);
  });

  it('config/sim.yaml spells out the default', () => {
    const fromFile = loadSimConfigText(readFileSync(repoFile('config/sim.yaml'), 'utf8'), 'config/sim.yaml');
    expect(JSON.stringify(fromFile)).toBe(JSON.stringify(DEFAULT_SIM_CONFIG));
  });

  it('rejects bad configs with the file, the path and what was expected', () => {
    const bad = (text: string) => {
      try {
        loadSimConfigText(text, 'my.yaml');
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const market =
      '{ name: BTC_USDT, stock: BTC, money: USDT, stockPrec: 6, moneyPrec: 2, minAmount: "0.001", minTotal: "5", makerFee: "0.1", takerFee: "0.1" }';
    expect(bad(`markets: [${market.replace('"0.001"', '"abc"')}]\naccounts: [{ name: a }]`)).toMatch(
      /my\.yaml: markets\.0\.minAmount: expected a decimal number, got "abc"/,
    );
    expect(bad(`markets: [${market}]\naccounts: [{ name: a, colour: red }]`)).toMatch(/my\.yaml: accounts\.0: .*colour/);
    expect(bad(`markets: [${market}]\naccounts: [{ name: a }, { name: a }]`)).toMatch(/accounts\.1\.name: duplicate account a/);
    expect(bad(`markets: [${market}]\naccounts: [{ name: a }]\nflow: { account: zz }`)).toMatch(/flow\.account: unknown account zz/);
    expect(bad('markets: [\n')).toMatch(/my\.yaml: invalid YAML/);
  });
});

describe('accounts, markets and balances', () => {
  it('generates random keys when none are configured and uses configured ones', () => {
    const x = new SimExchange(DEFAULT_SIM_CONFIG);
    const y = new SimExchange(DEFAULT_SIM_CONFIG);
    expect(x.accounts[0]!.apiKey).not.toBe(y.accounts[0]!.apiKey);
    expect(x.accounts[0]!.apiSecret).toMatch(/^[0-9a-f]{64}$/);
    const { ex } = makeExchange({ config: { accounts: [{ name: 'k', apiKey: 'key-12345', apiSecret: 'secret-123', partner: true }] } });
    expect(ex.accountByKey('key-12345')).toMatchObject({ id: 'k', partner: true, internal: false });
    expect(ex.accountByKey('nope')).toBeUndefined();
  });

  it('publishes markets in domain form: fees as fractions, maxTotal 0 as no cap', () => {
    const { ex } = makeExchange({ makerFee: '0.1', takerFee: '0.2' });
    const m = ex.markets.get('BTC_USDT')!;
    expect([fmt(m.makerFee), fmt(m.takerFee), m.maxTotal, m.tradesEnabled]).toEqual(['0.001', '0.002', null, true]);
  });

  it('trade balances list every asset; main balances omit zeros', () => {
    const { ex } = makeExchange();
    expect(Object.keys(ex.tradeBalances('c'))).toEqual(['BTC', 'USDT']);
    expect(Object.keys(ex.mainBalances('c'))).toEqual([]);
    expect(Object.keys(ex.mainBalances('b'))).toEqual(['USDT']);
  });

  it('transfers between main and spot, refusing what the source cannot cover', () => {
    const { ex } = makeExchange();
    const before = fmt(ex.totals('USDT'));
    expect(ex.transfer('b', 'USDT', D('250.5'), 'main', 'spot')).toEqual({ ok: true });
    expect(fmt(ex.mainBalances('b').USDT!)).toBe('749.5');
    expect(fmt(ex.tradeBalances('b').USDT!.available)).toBe('10000250.5');
    expect(ex.transfer('b', 'USDT', D('10000250.5'), 'spot', 'main')).toEqual({ ok: true });
    expect(ex.mainBalances('b').USDT!.toFixed()).toBe('10001000');
    expect(ex.transfer('b', 'USDT', D('10000000'), 'spot', 'main')).toMatchObject({ ok: false, errors: { amount: ['Not enough balance.'] } });
    expect(ex.transfer('b', 'USDT', D('1'), 'main', 'main')).toMatchObject({ ok: false });
    expect(ex.transfer('b', 'DOGE', D('1'), 'main', 'spot')).toMatchObject({ ok: false, errors: { ticker: ['The selected ticker is invalid.'] } });
    expect(ex.transfer('b', 'USDT', D('0'), 'main', 'spot')).toMatchObject({ ok: false, errors: { amount: expect.any(Array) } });
    expect(fmt(ex.totals('USDT'))).toBe(before);
  });
});

describe('codes', () => {
  it('takes the amount from the main balance and returns an unguessable code and an external id', () => {
    const { ex } = makeExchange();
    const total = fmt(ex.totals('USDT'));
    const r1 = ex.createCode('a', 'USDT', D('100.12345678'), 'p@ss!#', 'for Bob');
    const r2 = ex.createCode('a', 'USDT', '0.5');
    expect(r1).toMatchObject({ ok: true, message: 'Code was successfully created' });
    if (!r1.ok || !r2.ok) throw new Error('unreachable');
    expect(r1.code).not.toBe(r2.code);
    expect(r1.code.length).toBeGreaterThanOrEqual(40);
    expect(r1.externalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fmt(ex.mainBalances('a').USDT!)).toBe('899.37654322');
    expect(fmt(ex.totals('USDT'))).toBe(total); // the funds are held by the code, not lost
  });

  it('separates request validation (400 code 0) from a short main balance (422 code 5)', () => {
    const { ex } = makeExchange();
    expect(ex.createCode('a', 'USDT', D('1000.00000001'))).toMatchObject({ ok: false, reason: 'balance', errors: { amount: ['Not enough balance.'] } });
    expect(ex.createCode('c', 'USDT', D('1'))).toMatchObject({ ok: false, reason: 'balance' });
    expect(ex.createCode('a', 'USDT', D('0.000000001'))).toMatchObject({ ok: false, reason: 'validation', errors: { amount: expect.any(Array) } });
    expect(ex.createCode('a', 'USDT', D('1'), 'has space')).toMatchObject({ ok: false, reason: 'validation', errors: { passphrase: expect.any(Array) } });
    expect(fmt(ex.mainBalances('a').USDT!)).toBe('1000');
  });

  it('validateCodeRequest names every bad field', () => {
    const known = new Set(['USDT']);
    expect(validateCodeRequest({ ticker: 'USDT', amount: '1' }, known)).toEqual({});
    expect(validateCodeRequest({ ticker: 'USDT', amount: '1', passphrase: 'Aa1!@#$%^&*()_+-=[]{}', description: 'x'.repeat(280) }, known)).toEqual({});
    const e = validateCodeRequest({ amount: '-1', passphrase: 'x'.repeat(26), description: 'x'.repeat(281) }, known);
    expect(Object.keys(e).sort()).toEqual(['amount', 'description', 'passphrase', 'ticker']);
    expect(Object.keys(validateCodeRequest({ ticker: 'DOGE', amount: 'abc', passphrase: 'tab\there' }, known)).sort()).toEqual([
      'amount',
      'passphrase',
      'ticker',
    ]);
    expect(validateCodeRequest({ ticker: 'USDT', amount: '1.123456789' }, known).amount).toHaveLength(1);
  });
});

describe('investments', () => {
  it('seeds deterministic plans and records per client account, filtered by id, ticker and status, paged', () => {
    const { ex } = makeExchange({ config: { investments: { seed: 3, recordsPerAccount: 20, plans: DEFAULT_SIM_CONFIG_PLANS } } });
    const all = ex.investments('a', { limit: 100, offset: 0 }).records;
    expect(all).toHaveLength(20);
    const again = makeExchange({ config: { investments: { seed: 3, recordsPerAccount: 20, plans: DEFAULT_SIM_CONFIG_PLANS } } }).ex;
    expect(again.investments('a', { limit: 100, offset: 0 }).records.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(all.every((r, i) => i === 0 || all[i - 1]!.created >= r.created)).toBe(true);
    const first = all[0]!;
    expect(ex.investments('a', { id: first.id, limit: 100, offset: 0 }).records).toEqual([first]);
    const usdt = ex.investments('a', { ticker: 'USDT', limit: 100, offset: 0 }).records;
    expect(usdt.length).toBeGreaterThan(0);
    expect(usdt.every((r) => r.plan.ticker === 'USDT')).toBe(true);
    for (const status of [1, 2] as const) expect(ex.investments('a', { status, limit: 100, offset: 0 }).records.every((r) => r.status === status)).toBe(true);
    expect(ex.investments('a', { limit: 5, offset: 5 }).records).toEqual(all.slice(5, 10));
    expect(ex.investments('a', { limit: 100, offset: 10_000 }).records).toEqual([]);
    const wire = toWireInvestment(first);
    expect(typeof wire.amount).toBe('string');
    expect(Object.keys(wire.plan).sort()).toEqual([
      'duration',
      'id',
      'interestRatio',
      'interestTicker',
      'maxInvestment',
      'maxPossibleInvestment',
      'minInvestment',
      'percent',
      'status',
      'ticker',
    ]);
  });

  it('validates filters: id, ticker, status, limit 1-100, offset 0-10000', () => {
    expect(validateInvestmentFilters({})).toEqual({});
    expect(validateInvestmentFilters({ id: 'x', ticker: 'USDT', status: 2, limit: 100, offset: 10_000 })).toEqual({});
    expect(Object.keys(validateInvestmentFilters({ id: 5, ticker: 7, status: 3, limit: 0, offset: 10_001 })).sort()).toEqual([
      'id',
      'limit',
      'offset',
      'status',
      'ticker',
    ]);
    expect(Object.keys(validateInvestmentFilters({ status: '1', limit: 101, offset: -1 })).sort()).toEqual(['limit', 'offset', 'status']);
    expect(Object.keys(validateInvestmentFilters({ limit: 1.5 }))).toEqual(['limit']);
    expect(toInvestmentFilters({})).toEqual({ limit: 100, offset: 0 });
  });
});

const DEFAULT_SIM_CONFIG_PLANS = [
  { ticker: 'USDT', percent: '8', duration: 43200, interestTicker: 'USDT', minInvestment: '100', maxInvestment: '100000', maxPossibleInvestment: '50000' },
  { ticker: 'BTC', percent: '3', duration: 129600, interestTicker: 'BTC', minInvestment: '0.01', maxInvestment: '10', maxPossibleInvestment: '5' },
];

describe('parseSimConfig', () => {
  it('accepts numbers and strings for decimals and applies defaults', () => {
    const c = parseSimConfig({
      markets: [{ name: 'X_Y', stock: 'X', money: 'Y', stockPrec: 2, moneyPrec: 3, minAmount: 0.01, minTotal: '1', makerFee: 0, takerFee: '0.05' }],
      accounts: [{ name: 'solo' }],
    });
    expect(fmt(c.markets[0]!.minAmount)).toBe('0.01');
    expect(c.markets[0]!.maxTotal.isZero()).toBe(true);
    expect(c.accounts[0]).toMatchObject({ partner: false, internal: false, trade: {}, main: {} });
    expect(c.history.maxDeals).toBe(10_000);
    expect(c.speed).toBe(1);
  });
});
