import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExposureOrder } from '../../src/engine/account-exposure.js';
import { AccountRisk, accountSetup, type AccountLimits } from '../../src/engine/account-risk.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { replayJournal } from '../../src/engine/journal-replay.js';
import { PnlLedger } from '../../src/engine/pnl.js';
import { ConfigError } from '../../src/model/errors.js';
import { D, type Decimal } from '../../src/model/decimal.js';

const T0 = Date.UTC(2024, 2, 1, 12); // an engine time: virtual, set by each test

/**
 * Two strategies, `a` long 1 BTC bought at 100 and `b` long 1 ETH bought at 10, no fees: account equity is
 * (mid BTC − 100) + (mid ETH − 10), so a test sets the equity by setting the mids. Time is a variable.
 */
function rig(limits: AccountLimits, records: JournalRecord[] = []) {
  const clock = { now: T0 };
  const mids = new Map<string, Decimal>([
    ['BTC_USDT', D(100)],
    ['ETH_USDT', D(10)],
  ]);
  const a = new PnlLedger();
  const b = new PnlLedger();
  a.apply({ side: 'buy', amount: D(1), price: D(100), fee: D(0) });
  b.apply({ side: 'buy', amount: D(1), price: D(10), fee: D(0) });
  const orders: ExposureOrder[] = [];
  const journal = new MemoryJournal(records);
  const events: EngineEvent[] = [];
  const halts: string[] = [];
  const make = () =>
    new AccountRisk({
      limits,
      money: 'USDT',
      sources: {
        strategies: [
          { id: 'a', market: 'BTC_USDT', ledger: a },
          { id: 'b', market: 'ETH_USDT', ledger: b },
        ],
        mid: (m) => mids.get(m),
        liveOrders: () => orders,
      },
      journal,
      now: () => clock.now,
      emit: (e) => events.push(e),
      haltAll: (reason) => halts.push(reason),
    });
  const risk = make();
  /** Sets the mids (equity = btc − 100 + eth − 10) and lets the account look. */
  const at = (btc: string | number, eth: string | number = 10) => {
    mids.set('BTC_USDT', D(btc));
    mids.set('ETH_USDT', D(eth));
    risk.check();
  };
  const marks = () => journal.records().filter((r) => r.type === 'account-mark');
  return { clock, mids, a, b, orders, journal, events, halts, risk, at, marks, make };
}

describe('account risk: drawdown from the peak', () => {
  it('halts once when equity falls maxDrawdown below its PEAK (not below the start), across both strategies', () => {
    const r = rig({ maxDrawdown: D(10) });
    r.at(100); // equity 0: the first mark
    r.at(105); // peak 5
    r.at(96); // drawdown 9: below the limit
    expect(r.halts).toEqual([]);
    r.at(96, 9); // equity −5: drawdown 10 from the peak 5 (only 5 below the start): the limit is reached
    expect(r.halts).toHaveLength(1);
    expect(r.halts[0]).toMatch(/^account limit: account drawdown 10 USDT from the peak 5 reached the limit 10 \(equity -5\)/);
    expect(r.events).toEqual([{ type: 'account-halt', at: T0, limit: 'max-drawdown', reason: expect.stringMatching(/drawdown 10/) }]);
    const halt = r.journal.records().find((x) => x.type === 'account-halt');
    expect(halt).toMatchObject({ limit: 'max-drawdown', equity: '-5', peak: '5', dayStart: '0', day: '2024-03-01' });
    // halted: a deeper fall does not halt again
    r.at(80, 5);
    expect(r.halts).toHaveLength(1);
    expect(r.risk.status()).toMatchObject({ halt: { limit: 'max-drawdown', restored: false } });
    expect(r.risk.status().drawdown!.toFixed()).toBe('30'); // peak 5, equity −25
  });

  it('does nothing while a strategy holds a position in a market with no mid (its equity is not known)', () => {
    const r = rig({ maxDrawdown: D(1) });
    r.mids.delete('ETH_USDT');
    r.risk.check();
    expect(r.journal.records()).toEqual([]);
    expect(r.risk.status().equity).toBeUndefined();
  });
});

describe("account risk: the day's loss", () => {
  it('measures from the equity at the start of the UTC day; a new day re-bases it but does not re-arm a halt', () => {
    const r = rig({ maxDailyLoss: D(10) });
    r.clock.now = Date.UTC(2024, 2, 1, 23, 0);
    r.at(100); // day start 0
    r.at(92); // loss 8
    expect(r.halts).toEqual([]);
    r.clock.now = Date.UTC(2024, 2, 2, 0, 0, 1);
    r.at(91); // a new day starts at −9
    expect(r.marks().map((m) => [m.why, m.day, m.dayStart])).toEqual([
      ['first', '2024-03-01', '0'],
      ['day', '2024-03-02', '-9'],
    ]);
    r.at(83); // −17: 17 below yesterday's start, 8 below today's
    expect(r.halts).toEqual([]);
    r.at(81); // 10 below today's start
    expect(r.halts).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ type: 'account-halt', limit: 'max-daily-loss' });
    expect(r.halts[0]).toMatch(/account loss 10 USDT since the start of 2024-03-02 UTC \(equity then -9\) reached the limit 10/);
    // the next day: still halted (only an operator re-arms it), its start still journalled
    r.clock.now = Date.UTC(2024, 2, 3, 0, 5);
    r.at(70);
    expect(r.halts).toHaveLength(1);
    expect(r.risk.halt).toMatchObject({ limit: 'max-daily-loss' });
    expect(r.marks().at(-1)).toMatchObject({ why: 'day', day: '2024-03-03', dayStart: '-30' });
  });
});

describe('account risk: gross notional before each order', () => {
  const order = (side: 'buy' | 'sell', amount: string | number, price: string | number) => ({ side, amount: D(amount), price: D(price) });

  it("counts |position| × mid of every strategy, every live order's left × price and the new order; the limit itself passes", () => {
    const r = rig({ maxGrossNotional: D(300) });
    // positions 1 × 100 + 1 × 10; b's live buy has 2 left of 3 at 10
    r.orders.push({ strategyId: 'b', side: 'buy', price: D(10), amount: D(3), venueLeft: D(2), dealt: D(0) });
    expect(r.risk.checkOrder('a', order('buy', 1, 170))).toEqual({ ok: true }); // 110 + 20 + 170 = 300
    const no = r.risk.checkOrder('a', order('buy', 1, '170.01'));
    expect(no).toEqual({
      ok: false,
      reason: 'account-gross-notional',
      message: 'account gross notional would be 300.01 USDT (positions 110, open orders 20, this order 170.01), limit 300',
    });
    // a position is valued at the mid, or its average cost while its market has no book yet
    r.mids.set('BTC_USDT', D(150));
    expect(r.risk.checkOrder('a', order('buy', 1, 121)).ok).toBe(false); // 160 + 20 + 121
    r.mids.delete('BTC_USDT');
    expect(r.risk.checkOrder('a', order('buy', 1, 170)).ok).toBe(true);
    expect(r.risk.status().grossNotional.toFixed()).toBe('130');
  });

  it("lets an order through that can only bring its own strategy's position toward zero", () => {
    const r = rig({ maxGrossNotional: D(100) }); // already above: 110 of positions
    expect(r.risk.checkOrder('a', order('buy', '0.001', 100)).ok).toBe(false);
    expect(r.risk.checkOrder('a', order('sell', 1, 100))).toEqual({ ok: true }); // closes a's long
    expect(r.risk.checkOrder('b', order('sell', '0.5', 10))).toEqual({ ok: true });
    expect(r.risk.checkOrder('a', order('sell', '1.001', 100)).ok).toBe(false); // would open a short
    r.orders.push({ strategyId: 'a', side: 'sell', price: D(101), amount: D('0.6'), venueLeft: D('0.6'), dealt: D(0) });
    expect(r.risk.checkOrder('a', order('sell', '0.5', 100)).ok).toBe(false); // with the resting sell, 1.1 > 1
    expect(r.risk.checkOrder('a', order('sell', '0.4', 100)).ok).toBe(true);
  });

  it('has no opinion without maxGrossNotional', () => {
    expect(rig({ maxDrawdown: D(1) }).risk.checkOrder('a', order('buy', 1000, 1000))).toEqual({ ok: true });
  });
});

describe('account risk: what is journalled, and a restart', () => {
  it('journals a new peak only once it is more than 1 % of maxDrawdown above the last one written', () => {
    const r = rig({ maxDrawdown: D(100) }); // step 1
    for (const btc of ['100', '100.5', '101', '101.5', '102.01', '102.5', '103', '103.2', '103.1']) r.at(btc);
    expect(r.marks().map((m) => [m.why, m.peak])).toEqual([
      ['first', '0'],
      // 1 is exactly one step above 0: not more
      ['peak', '1.5'],
      // 2.01 and 2.5 are not more than a step above 1.5
      ['peak', '3'],
      // 3.2 is only 0.2 above 3: not written while the daemon runs, written exactly at a clean stop
    ]);
    r.risk.stop();
    expect(r.marks().at(-1)).toMatchObject({ why: 'stop', peak: '3.2', equity: '3.1' });
    r.at(50); // stopped: no check any more
    expect(r.halts).toEqual([]);
  });

  it('property: the restored peak is never above the true peak nor more than the step below it; the halt comes at the first crossing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -3000, max: 3000 }), { minLength: 1, maxLength: 60 }), (cents) => {
        const r = rig({ maxDrawdown: D(20) }); // step 0.2
        let peak: Decimal | undefined;
        let halted = false;
        for (const c of cents) {
          const equity = D(c).div(100);
          r.at(equity.plus(100).toFixed());
          peak = peak === undefined || equity.gt(peak) ? equity : peak;
          const restored = replayJournal(r.journal.records()).account!.peak;
          expect(restored.lte(peak)).toBe(true);
          expect(peak.minus(restored).lte('0.2')).toBe(true);
          if (!halted && peak.minus(equity).gte(20)) halted = true;
          expect(r.halts.length).toBe(halted ? 1 : 0);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a restart takes the peak and the day back from the journal and halts from THAT peak', () => {
    const first = rig({ maxDrawdown: D(10) });
    first.at(100);
    first.at(106); // peak 6, journalled
    first.at(101); // equity 1: drawdown 5, then the process dies
    const records = first.journal.records();
    expect(replayJournal(records).account).toMatchObject({ peak: D(6), day: '2024-03-01', dayStart: D(0) });

    const second = rig({ maxDrawdown: D(10) }, records);
    second.risk.restore(replayJournal(records).account);
    second.at(97); // equity −3: 9 below the restored peak
    expect(second.halts).toEqual([]);
    second.at(96); // 10 below the peak of the earlier run (a fresh start would count from 1: only 5)
    expect(second.halts).toHaveLength(1);
    // same day, no new peak: no mark written after the restart
    expect(
      second.journal
        .records()
        .slice(records.length)
        .map((r) => r.type),
    ).toEqual(['account-halt']);
  });

  it('a halt survives a restart (restored, no second halt) until an operator resumes: then the limits count from the equity of that moment', () => {
    const first = rig({ maxDrawdown: D(10) });
    first.at(100);
    first.at(90); // halted
    const records = first.journal.records();
    const state = replayJournal(records).account!;
    expect(state.halt).toMatchObject({ limit: 'max-drawdown', reason: expect.stringMatching(/drawdown 10/) });

    const second = rig({ maxDrawdown: D(10) }, records);
    second.risk.restore(state);
    expect(second.risk.halt).toMatchObject({ limit: 'max-drawdown', restored: true });
    second.at(85);
    expect(second.halts).toEqual([]); // already halted: not again
    expect(second.risk.rearm('http 127.0.0.1')).toBe(true);
    expect(second.journal.records().at(-1)).toMatchObject({
      type: 'account-mark',
      why: 'resume',
      peak: '-15',
      dayStart: '-15',
      equity: '-15',
      source: 'http 127.0.0.1',
    });
    expect(replayJournal(second.journal.records()).account?.halt).toBeUndefined();
    second.at(80); // 5 below the re-armed peak
    expect(second.halts).toEqual([]);
    second.at(75);
    expect(second.halts).toHaveLength(1);
    expect(second.risk.rearm('x')).toBe(true);
    expect(second.risk.rearm('x')).toBe(false); // not halted any more
  });
});

describe('journal replay of the account records', () => {
  it('keeps the last marks, and a halt until a resume mark (not through other marks)', () => {
    const mark = (t: number, why: 'first' | 'peak' | 'day' | 'resume', peak: string): JournalRecord => ({
      t,
      type: 'account-mark',
      why,
      peak,
      day: '2024-03-01',
      dayStart: '0',
    });
    const halt: JournalRecord = { t: 3, type: 'account-halt', limit: 'max-daily-loss', reason: 'r', equity: '-9', peak: '2', day: '2024-03-01', dayStart: '0' };
    expect(replayJournal([]).account).toBeUndefined();
    expect(replayJournal([mark(1, 'first', '0'), mark(2, 'peak', '2')]).account).toEqual({ peak: D(2), day: '2024-03-01', dayStart: D(0) });
    expect(replayJournal([mark(1, 'first', '0'), halt, mark(4, 'day', '2')]).account?.halt).toEqual({ t: 3, limit: 'max-daily-loss', reason: 'r' });
    expect(replayJournal([mark(1, 'first', '0'), halt, mark(4, 'resume', '-9')]).account).toEqual({ peak: D(-9), day: '2024-03-01', dayStart: D(0) });
  });
});

describe('account limits setup', () => {
  it('is off (nothing computed) with no limit, and refuses strategies in markets of different money assets', () => {
    const runs = [
      { id: 'mm-btc', market: { money: 'USDT' } },
      { id: 'mm-eth', market: { money: 'USDT' } },
      { id: 'eth-btc', market: { money: 'BTC' } },
    ];
    expect(accountSetup(undefined, runs)).toEqual({});
    expect(accountSetup({ limits: {} }, runs)).toEqual({});
    expect(accountSetup({ limits: { maxDrawdown: D(5) } }, runs.slice(0, 2))).toEqual({ account: { limits: { maxDrawdown: D(5) }, money: 'USDT' } });
    const mixed = () => accountSetup({ limits: { maxDrawdown: D(5) }, where: 'x.yaml: risk.account' }, runs);
    expect(mixed).toThrow(ConfigError);
    expect(mixed).toThrow(
      /^x\.yaml: risk\.account: account limits add the strategies' PnL in one money asset, but their markets are in USDT \(mm-btc, mm-eth\) and BTC \(eth-btc\)/,
    );
  });
});
