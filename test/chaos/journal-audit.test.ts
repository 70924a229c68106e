import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditAccount } from '../../src/chaos/journal-audit.js';
import type { VenueRecords } from '../../src/chaos/venue-records.js';
import { chaosPassed, formatSummaryLine, summarize } from '../../src/chaos/chaos-summary.js';
import { planKills } from '../../src/chaos/kill-plan.js';
import { LiveWatch } from '../../src/chaos/live-watch.js';
import { scanForSecrets } from '../../src/chaos/secret-scan.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { D } from '../../src/model/decimal.js';
import type { Deal, Order } from '../../src/model/order.js';

/** The audit must see each kind of loss: each case below breaks one thing of an otherwise clean run. */
const order = (id: string, o: Partial<Order> = {}): Order => ({
  orderId: Number(id.replace(/\D/g, '')) || 1,
  clientOrderId: id,
  market: 'BTC_USDT',
  side: 'buy',
  kind: 'limit',
  timestamp: 1,
  amount: D('1'),
  price: D('100'),
  left: D('0'),
  dealStock: D('1'),
  dealMoney: D('100'),
  dealFee: D('0.1'),
  postOnly: false,
  ioc: false,
  rpi: false,
  stp: 'no',
  status: 'FILLED',
  ...o,
});
const deal: Deal = {
  id: 7,
  time: 1,
  market: 'BTC_USDT',
  side: 'buy',
  role: 'maker',
  amount: D('1'),
  price: D('100'),
  deal: D('100'),
  fee: D('0.1'),
  orderId: 1,
  clientOrderId: 'mm-a-1',
};
const jorder = { market: 'BTC_USDT', side: 'buy' as const, type: 'limit' as const, price: '100', amount: '1' };
const jdeal = {
  id: 7,
  time: 1,
  market: 'BTC_USDT',
  side: 'buy' as const,
  role: 'maker' as const,
  amount: '1',
  price: '100',
  deal: '100',
  fee: '0.1',
  orderId: 1,
  clientOrderId: 'mm-a-1',
};
const clean: JournalRecord[] = [
  { t: 1, type: 'start', run: 1, strategies: ['mm'], dryRun: false },
  { t: 2, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-a-1', order: jorder },
  { t: 3, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-a-1', state: 'open', orderId: 1, left: '1' },
  { t: 4, type: 'fill', strategyId: 'mm', deal: jdeal },
  { t: 5, type: 'balance', balances: { BTC: { available: '2', freeze: '0' }, USDT: { available: '899.9', freeze: '0' } } },
];
const venue: VenueRecords = {
  open: [],
  finished: [order('mm-a-1')],
  deals: [deal],
  balances: { BTC: { available: D('2'), freeze: D('0') }, USDT: { available: D('899.9'), freeze: D('0') } },
  initial: { BTC: { available: D('1'), freeze: D('0') }, USDT: { available: D('1000'), freeze: D('0') } },
};
const counts = (a: ReturnType<typeof auditAccount>) => [a.duplicates.length, a.lost.length, a.unknownLeft.length, a.fillsMissing.length, a.balanceDiff.length];

describe('journal-vs-venue audit', () => {
  it('a clean run has zeros in every column', () => {
    expect(counts(auditAccount('a', clean, venue))).toEqual([0, 0, 0, 0, 0]);
  });

  it.each([
    ['one client order id on two venue orders', clean, { ...venue, finished: [order('mm-a-1'), order('mm-a-1', { orderId: 2 })] }, [1, 0, 0, 0, 0]],
    [
      'a venue order the journal does not know',
      clean,
      { ...venue, open: [order('mm-a-9', { left: D('1'), dealStock: D('0'), status: 'NEW' })] },
      [0, 1, 0, 0, 0],
    ],
    [
      'an order the journal holds as never placed is on the venue',
      [
        ...clean.slice(0, 4),
        { t: 4, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-a-2', order: jorder },
        { t: 5, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-a-2', state: 'rejected' },
        clean[4]!,
      ] as JournalRecord[],
      { ...venue, finished: [order('mm-a-1'), order('mm-a-2', { orderId: 2, left: D('1'), dealStock: D('0'), status: 'CANCELED' })] },
      [0, 1, 0, 0, 0],
    ],
    [
      'a submission left unknown',
      [
        ...clean,
        { t: 6, type: 'submit', strategyId: 'mm', clientOrderId: 'mm-a-3', order: jorder },
        { t: 7, type: 'outcome', strategyId: 'mm', clientOrderId: 'mm-a-3', state: 'unknown' },
      ] as JournalRecord[],
      venue,
      [0, 0, 1, 0, 0],
    ],
    ['a venue deal missing from the journal (and so the balance)', clean.filter((r) => r.type !== 'fill'), venue, [0, 1, 0, 1, 2]],
    [
      'a balance off by the last decimal',
      clean.slice(0, 4).concat({ t: 5, type: 'balance', balances: { BTC: { available: '2', freeze: '0' }, USDT: { available: '899.9', freeze: '0' } } }),
      { ...venue, balances: { ...venue.balances, USDT: { available: D('899.90000001'), freeze: D('0') } } },
      [0, 0, 0, 0, 2],
    ],
  ] as const)('counts %s', (_name, records, v, expected) => {
    expect(counts(auditAccount('a', records as JournalRecord[], v))).toEqual(expected);
  });

  it('live grid duplicates seen while running are duplicates', () => {
    const watch = new LiveWatch(['grid-btc']);
    const a = order('grid-btc-x1-1', { left: D('1'), status: 'NEW' });
    watch.sample([a, order('grid-btc-x1-2', { left: D('1'), status: 'NEW' }), order('mm-x1-3', { left: D('1') })]);
    watch.sample([a, order('grid-btc-x1-2', { left: D('1'), status: 'NEW' })]); // the same pair, counted once
    watch.sample([a, order('grid-btc-x1-4', { left: D('1'), price: D('101') })]); // another level: fine
    expect([...watch.gridDuplicates]).toEqual(['BTC_USDT@100: grid-btc-x1-1 + grid-btc-x1-2']);
    expect(counts(auditAccount('a', clean, venue, watch.gridDuplicates))).toEqual([1, 0, 0, 0, 0]);
  });

  it('the summary line and the verdict', () => {
    const s = summarize([auditAccount('a', clean, venue)], { tooManyRequests: 3, ruleRejects: 0, restarts: 2, secretHits: 0 });
    expect(formatSummaryLine(s)).toBe(
      'orders 1, duplicates 0, lost 0, unknown-left 0, fills-missing 0, balance-diff 0, 429 3, rule-rejects 0, restarts 2, secrets 0, overfills 0, phantom-cancels 0, band-breaches 0, stale-fills 0',
    );
    expect(chaosPassed(s)).toBe(true);
    for (const column of ['overfills', 'phantomCancels', 'bandBreaches', 'staleFills'] as const) expect(chaosPassed({ ...s, [column]: 1 }), column).toBe(false);
    expect(chaosPassed({ ...s, ruleRejects: 1 })).toBe(false);
    expect(chaosPassed({ ...s, secretHits: 1 })).toBe(false);
  });
});

describe('secret scan', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-scan-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('finds a secret raw or JSON-escaped in any file, names file, offset and label, never the value', () => {
    writeFileSync(join(dir, 'clean.log'), 'nothing to see\n');
    writeFileSync(join(dir, 'leak.jsonl'), `{"a":"x"}\n{"secret":"${JSON.stringify('s3c"ret').slice(1, -1)}"}\n`);
    const result = scanForSecrets(dir, [{ label: 'API secret', value: 's3c"ret' }], [{ name: 'report', text: 'ok' }]);
    expect(result.files).toBe(3);
    expect(result.hits).toEqual([{ file: 'leak.jsonl', offset: 21, secret: 'API secret' }]);
  });
});

describe('kill plan', () => {
  it('is seeded, sorted by orders, and an early kill hits the daemon the previous kill restarted', () => {
    const plan = planKills(4, 50, 10_000, 2);
    expect(planKills(4, 50, 10_000, 2)).toEqual(plan);
    expect(plan).toHaveLength(50);
    for (let i = 1; i < plan.length; i++) {
      expect(plan[i]!.atOrders).toBeGreaterThanOrEqual(plan[i - 1]!.atOrders);
      if (plan[i]!.earlyAfterMs !== undefined) expect(plan[i]!.target).toBe(plan[i - 1]!.target);
    }
    expect(plan.filter((k) => k.earlyAfterMs !== undefined).length).toBeGreaterThan(5);
  });
});
