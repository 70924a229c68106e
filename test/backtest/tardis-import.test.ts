import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTardis } from '../../backtest/importers/tardis-importer.js';
import { readRecordingLines, type RecordingLine } from '../../src/recording/recording-format.js';
import { BINANCE_FILES, btcUsdtWireMarket } from './fixtures.js';
import { binanceImportOnce } from './binance-import-once.js';
import { tardisFromBinanceOnce } from './tardis-fixture-once.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-tardis-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function lines(file: string): Promise<RecordingLine[]> {
  const out: RecordingLine[] = [];
  for await (const l of readRecordingLines(file)) out.push(l);
  return out;
}

const HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
let n = 0;
function csv(rows: string[], header = HEADER): string {
  const f = join(tmp, `small-${++n}.csv`);
  writeFileSync(f, [header, ...rows].join('\n') + '\n');
  return f;
}
const row = (ms: number, snap: boolean, side: 'bid' | 'ask', price: string, amount: string): string =>
  `x,BTCUSDT,${ms * 1000},${ms * 1000},${snap},${side},${price},${amount}`;
const opts = (book: string, extra: Partial<Parameters<typeof importTardis>[0]> = {}): Parameters<typeof importTardis>[0] => ({
  book,
  intervalMs: 1000,
  limit: 20,
  out: join(tmp, `out-${++n}.jsonl.gz`),
  market: btcUsdtWireMarket(),
  ...extra,
});

describe('bot import tardis on Tardis-schema files made from the Binance capture', () => {
  let tardis: RecordingLine[];
  let binance: RecordingLine[];
  let summary: Awaited<ReturnType<typeof importTardis>>;

  beforeAll(async () => {
    const gen = await tardisFromBinanceOnce(BINANCE_FILES, tmp);
    const tOut = join(tmp, 'tardis.jsonl.gz');
    summary = await importTardis({ book: gen.book, trades: gen.trades, intervalMs: 1000, limit: 20, out: tOut, market: btcUsdtWireMarket() });
    // the Binance importer's output at the same grid and depth: the import binance-import checks, made once per run
    const { file: bOut } = await binanceImportOnce(tmp);
    [tardis, binance] = await Promise.all([lines(tOut), lines(bOut)]);
  }, 120_000);

  it('writes at every grid time the same book as the Binance importer’s rebuild', () => {
    const tBooks = tardis.filter((l) => l.type === 'book');
    const bBooks = binance.filter((l) => l.type === 'book');
    expect(summary.snapshotRuns).toBe(1);
    expect(summary.updatesBeforeSnapshot).toBe(0);
    expect(tBooks.length).toBeGreaterThan(600);
    expect(summary.snapshots).toBe(tBooks.length);
    // The Tardis import may start one grid time earlier: the snapshot's run is complete at its own time,
    // where the Binance importer starts at the message after the snapshot. From there on, line for line.
    const start = tBooks.findIndex((l) => l.t === bBooks[0]!.t);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(start).toBeLessThanOrEqual(1);
    expect(tBooks.slice(start)).toEqual(bBooks);
  });

  it('never writes a crossed book, keeps times monotonic and on the grid, keeps the trades', () => {
    let last = 0;
    for (const l of tardis) {
      if (l.type === 'market') continue;
      expect(l.t).toBeGreaterThanOrEqual(last);
      last = l.t;
      if (l.type === 'book') {
        expect(l.t % 1000).toBe(0);
        expect(Number(l.book.bids[0]![0])).toBeLessThan(Number(l.book.asks[0]![0]));
      }
    }
    expect(summary.crossedSkipped).toBe(0);
    const tTrades = tardis.filter((l) => l.type === 'trade');
    const bTrades = binance.filter((l) => l.type === 'trade');
    expect(tTrades.length).toBe(summary.trades);
    expect(tTrades.length).toBeGreaterThan(19_000);
    // Same trades; the Binance importer may keep a few more at the very start (a Tardis snapshot run only
    // ends at the next update row, so trades before that are before the first grid snapshot).
    expect(bTrades.slice(bTrades.length - tTrades.length)).toEqual(tTrades);
    expect(bTrades.length - tTrades.length).toBeLessThan(50);
  });
});

describe('Tardis incremental_book_L2 rules', () => {
  it('a new snapshot run resets the book; amount 0 deletes a level', async () => {
    const f = csv([
      row(100, true, 'bid', '100.00', '1'),
      row(100, true, 'bid', '99.00', '2'),
      row(100, true, 'ask', '101.00', '1'),
      row(1500, false, 'bid', '100.00', '0'), // delete
      row(2500, true, 'bid', '98.00', '3'),
      row(2500, true, 'ask', '102.00', '4'), // new run: 99 and 101 vanish
      row(3500, false, 'ask', '103.00', '1'),
      row(4200, false, 'ask', '103.00', '2'),
    ]);
    const o = opts(f);
    const s = await importTardis(o);
    expect(s.snapshotRuns).toBe(2);
    const books = (await lines(o.out)).filter((l) => l.type === 'book');
    expect(books.map((b) => [b.t, b.book.bids, b.book.asks])).toEqual([
      [
        1000,
        [
          ['100', '1'],
          ['99', '2'],
        ],
        [['101', '1']],
      ],
      [2000, [['99', '2']], [['101', '1']]],
      [3000, [['98', '3']], [['102', '4']]], // the new run replaced 99 and 101
      [
        4000,
        [['98', '3']],
        [
          ['102', '4'],
          ['103', '1'],
        ],
      ],
    ]);
  });

  it('updates before the first snapshot are counted and skipped; trades without a side are counted', async () => {
    const book = csv([
      row(50, false, 'bid', '1.00', '1'),
      row(100, true, 'bid', '100.00', '1'),
      row(100, true, 'ask', '101.00', '1'),
      row(1200, false, 'ask', '101.00', '2'),
      row(2200, false, 'ask', '101.00', '3'),
    ]);
    const trades = csv(
      [
        'x,BTCUSDT,300000,300000,0,buy,101.00,0.5',
        'x,BTCUSDT,1300000,1300000,1,buy,101.00,0.5',
        'x,BTCUSDT,1400000,1400000,2,unknown,101.00,0.5',
        'x,BTCUSDT,1500000,1500000,3,sell,100.00,0.25',
      ],
      'exchange,symbol,timestamp,local_timestamp,id,side,price,amount',
    );
    const o = opts(book, { trades });
    const s = await importTardis(o);
    expect(s.updatesBeforeSnapshot).toBe(1);
    expect(s.tradesUnknownSide).toBe(1);
    expect(s.trades).toBe(2);
    const out = await lines(o.out);
    expect(out.filter((l) => l.type === 'trade').map((l) => l.type === 'trade' && [l.t, l.side, l.price, l.amount])).toEqual([
      [1300, 'buy', '101', '0.5'],
      [1500, 'sell', '100', '0.25'],
    ]);
  });

  it.each([
    ['a side that is not bid/ask', row(2400, false, 'bid', '100.00', '1').replace(',bid,', ',buy,'), /:5: side "buy"/],
    ['a malformed amount', row(2400, false, 'bid', '100.00', 'x'), /:5: amount "x"/],
    ['a price off the tick', row(2400, false, 'bid', '100.005', '1'), /:5: price "100.005" is not a multiple/],
    ['a time going back', row(50, false, 'bid', '100.00', '1'), /:5: local_timestamp goes back/],
    ['another symbol', row(2400, false, 'bid', '100.00', '1').replace('BTCUSDT', 'ETHUSDT'), /:5: symbol "ETHUSDT".*--symbol/],
  ])('%s is a typed error naming file and line, and nothing is left written', async (_what, bad, message) => {
    // grid times 1000 and 2000 are written before the bad line: the partial output must go
    const f = csv([
      row(100, true, 'bid', '100.00', '1'),
      row(1200, false, 'ask', '101.00', '1'),
      row(2300, false, 'ask', '102.00', '1'),
      bad,
      row(3500, false, 'ask', '101.00', '1'),
    ]);
    const o = opts(f);
    const error = await importTardis(o).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CAPTURE_FORMAT' });
    expect((error as Error).message).toContain(f);
    expect((error as Error).message).toMatch(message);
    expect(existsSync(o.out)).toBe(false);
  });

  it('a file that is not incremental_book_L2 is refused at its header', async () => {
    const f = csv([row(100, true, 'bid', '100.00', '1')], 'exchange,symbol,timestamp,local_timestamp,side,price,amount');
    await expect(importTardis(opts(f))).rejects.toThrow(/:1: not a Tardis incremental_book_L2 CSV header \(missing is_snapshot/);
  });

  it('property: every grid snapshot is the book of a straightforward rebuild from the rows before it', async () => {
    const ev = fc.record({
      dt: fc.integer({ min: 0, max: 1500 }),
      snapshot: fc.boolean(),
      side: fc.constantFrom('bid' as const, 'ask' as const),
      off: fc.integer({ min: 1, max: 8 }),
      amount: fc.constantFrom('0', '1', '2.5', '0.001'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(ev, { minLength: 1, maxLength: 60 }), async (events) => {
        // bids at 100 - off, asks at 100 + off: never crossed, so every grid time is written
        let t = 0;
        const rows = [row(0, true, 'bid', '99', '1'), row(0, true, 'ask', '101', '1')];
        const timed = events.map((e) => ({ ...e, t: (t += e.dt), price: String(e.side === 'bid' ? 100 - e.off : 100 + e.off) }));
        for (const e of timed) rows.push(row(e.t, e.snapshot, e.side, e.price, e.amount));
        // a last update after the next grid time, so that at least one is written
        timed.push({ dt: 0, snapshot: false, side: 'bid', off: 9, amount: '1', t: t + 1000, price: '91' });
        rows.push(row(t + 1000, false, 'bid', '91', '1'));
        const o = opts(csv(rows));
        await importTardis(o);
        const books = (await lines(o.out)).filter((l) => l.type === 'book');
        // naive rebuild: replay all rows received before each grid time
        const all = [
          { t: 0, snapshot: true, side: 'bid' as const, price: '99', amount: '1' },
          { t: 0, snapshot: true, side: 'ask' as const, price: '101', amount: '1' },
          ...timed,
        ];
        const at = (g: number): { bids: string[][]; asks: string[][] } | undefined => {
          const bid = new Map<string, string>();
          const ask = new Map<string, string>();
          let prevSnap = false;
          for (const r of all) {
            if (r.t >= g) break;
            if (r.snapshot && !prevSnap) {
              bid.clear();
              ask.clear();
            }
            prevSnap = r.snapshot;
            const m = r.side === 'bid' ? bid : ask;
            if (Number(r.amount) === 0) m.delete(r.price);
            else m.set(r.price, r.amount);
          }
          const sort = (m: Map<string, string>, desc: boolean): string[][] =>
            [...m].sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0]))).map(([p, q]) => [p, q]);
          return { bids: sort(bid, true), asks: sort(ask, false) };
        };
        expect(books.length).toBeGreaterThan(0);
        for (const b of books) expect({ bids: b.book.bids, asks: b.book.asks }).toEqual(at(b.t));
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
