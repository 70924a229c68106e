import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { wireMarketFromOptions } from '../../backtest/importers/binance-depth-importer.js';
import { applyCryptofeedBook, importCryptofeed, type CryptofeedImportOptions } from '../../backtest/importers/cryptofeed-importer.js';
import { LevelBook } from '../../backtest/importers/level-book.js';
import { readRecordingLines, type RecordingLine } from '../../src/recording/recording-format.js';

const data = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const OKX_FILE = join(data, 'cryptofeed-okx-btcusdt', 'OKX.ws.1.0');
export const KRAKEN_FILE = join(data, 'cryptofeed-kraken-xbtchf', 'KRAKEN.ws.50.0');
const tmp = mkdtempSync(join(tmpdir(), 'bt-cryptofeed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const okxMarket = wireMarketFromOptions({
  name: 'BTC_USDT',
  stock: 'BTC',
  money: 'USDT',
  stockPrec: 8,
  moneyPrec: 1,
  minAmount: '0.00001',
  minTotal: '5',
  makerFeePercent: '0.1',
  takerFeePercent: '0.1',
});
const krakenMarket = wireMarketFromOptions({
  name: 'BTC_CHF',
  stock: 'BTC',
  money: 'CHF',
  stockPrec: 8,
  moneyPrec: 1,
  minAmount: '0.0001',
  minTotal: '5',
  makerFeePercent: '0.16',
  takerFeePercent: '0.26',
});

/** Independent of the importer: the capture's received frames for one instrument, time as ms from the text. */
interface Frame {
  t: number;
  snapshot: boolean;
  bids: string[][];
  asks: string[][];
  trades: Array<{ price: string; amount: string; side: string }>;
}
function frames(file: string, venue: 'okx' | 'kraken', symbol: string): Frame[] {
  const out: Frame[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('wss://')) continue;
    const i = line.indexOf(': ');
    const [sec, frac = ''] = line.slice(0, i).split('.');
    const t = Number(sec) * 1000 + Number(frac.padEnd(3, '0').slice(0, 3));
    const msg = JSON.parse(line.slice(i + 2)) as unknown;
    if (venue === 'okx' && !Array.isArray(msg)) {
      const m = msg as { arg?: { channel: string; instId: string }; action?: string; data?: Array<Record<string, unknown>> };
      if (m.arg?.instId !== symbol || !m.data) continue;
      if (m.arg.channel === 'books') {
        const d = m.data[0]!;
        out.push({ t, snapshot: m.action === 'snapshot', bids: d['bids'] as string[][], asks: d['asks'] as string[][], trades: [] });
      } else if (m.arg.channel === 'trades') {
        out.push({
          t,
          snapshot: false,
          bids: [],
          asks: [],
          trades: m.data.map((d) => ({ price: d['px'] as string, amount: d['sz'] as string, side: d['side'] as string })),
        });
      }
    } else if (venue === 'kraken' && Array.isArray(msg) && msg[msg.length - 1] === symbol) {
      const parts = msg.slice(1, -2) as Array<Record<string, string[][]>>;
      const f: Frame = { t, snapshot: 'as' in parts[0]! || 'bs' in parts[0]!, bids: [], asks: [], trades: [] };
      for (const p of parts) {
        f.asks.push(...(p['as'] ?? p['a'] ?? []));
        f.bids.push(...(p['bs'] ?? p['b'] ?? []));
      }
      out.push(f);
    }
  }
  return out;
}

const trim = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** The book after every frame received before `t`, top `limit` a side: maps and a sort, nothing shared with the importer. */
function naiveBook(all: Frame[], t: number, limit: number): { bids: string[][]; asks: string[][] } {
  const bids = new Map<number, string[]>();
  const asks = new Map<number, string[]>();
  for (const f of all) {
    if (f.t >= t) break;
    if (f.snapshot) {
      bids.clear();
      asks.clear();
    }
    for (const [side, levels] of [
      [bids, f.bids],
      [asks, f.asks],
    ] as const) {
      for (const [p, q] of levels) {
        if (Number(q) === 0) side.delete(Number(p));
        else side.set(Number(p), [trim(p!), trim(q!)]);
      }
    }
  }
  const top = (m: Map<number, string[]>, desc: boolean): string[][] =>
    [...m.keys()]
      .sort((a, b) => (desc ? b - a : a - b))
      .slice(0, limit)
      .map((k) => m.get(k)!);
  return { bids: top(bids, true), asks: top(asks, false) };
}

async function lines(file: string): Promise<RecordingLine[]> {
  const out: RecordingLine[] = [];
  for await (const l of readRecordingLines(file)) out.push(l);
  return out;
}

describe.each([
  { name: 'OKX BTC-USDT', file: OKX_FILE, venue: 'okx' as const, symbol: 'BTC-USDT', market: okxMarket, interval: 200, bookFrames: 98, checksums: 98 },
  {
    name: 'Kraken XBT/CHF',
    file: KRAKEN_FILE,
    venue: 'kraken' as const,
    symbol: 'XBT/CHF',
    market: krakenMarket,
    interval: 500,
    bookFrames: 290,
    checksums: 289,
  },
])('bot import cryptofeed on the real $name capture', ({ file, venue, symbol, market, interval, bookFrames, checksums }) => {
  const limit = 25;
  let out: RecordingLine[];
  let summary: Awaited<ReturnType<typeof importCryptofeed>>;
  const all = frames(file, venue, symbol);

  it('imports with every checksum verified, nothing crossed', async () => {
    const o: CryptofeedImportOptions = { file, symbol, intervalMs: interval, limit, out: join(tmp, `${venue}.jsonl.gz`), market };
    summary = await importCryptofeed(o);
    out = await lines(o.out);
    expect(summary).toMatchObject({ exchange: venue, symbol, bookMessages: bookFrames, checksumsVerified: checksums, crossedSkipped: 0 });
    expect(summary.snapshots).toBeGreaterThan(10);
  });

  it('every snapshot is the true state of a straightforward rebuild at its grid time, never crossed, times monotonic', () => {
    const books = out.filter((l) => l.type === 'book');
    expect(books.length).toBe(summary.snapshots);
    let last = 0;
    for (const l of out) {
      if (l.type === 'market') continue;
      expect(l.t).toBeGreaterThanOrEqual(last);
      last = l.t;
    }
    for (const b of books) {
      expect(b.t % interval).toBe(0);
      expect(Number(b.book.bids[0]![0])).toBeLessThan(Number(b.book.asks[0]![0]));
      expect({ bids: b.book.bids, asks: b.book.asks }).toEqual(naiveBook(all, b.t, limit));
    }
  });

  it('keeps the capture’s trades from the first snapshot on, with the taker’s side', () => {
    const first = out.find((l) => l.type === 'book')!;
    const expected = all
      .filter((f) => f.t >= first.t)
      .flatMap((f) => f.trades.map((x) => ({ t: f.t, price: trim(x.price), amount: trim(x.amount), side: x.side })));
    const got = out.filter((l) => l.type === 'trade').map((l) => l.type === 'trade' && { t: l.t, price: l.price, amount: l.amount, side: l.side });
    expect(got).toEqual(expected);
    expect(got.length).toBe(venue === 'okx' ? 68 : 0); // Kraken: the book connection only (see its README)
  });
});

describe('a capture that would give a wrong book is refused', () => {
  it('a changed OKX size fails the checksum: typed error naming file and line, nothing written', async () => {
    const src = readFileSync(OKX_FILE, 'utf8').split('\n');
    let updates = 0;
    const bad = src.findIndex((l) => l.includes('"channel":"books","instId":"BTC-USDT"') && l.includes('"update"') && ++updates === 5);
    const i = src[bad]!.indexOf(': ');
    const msg = JSON.parse(src[bad]!.slice(i + 2)) as { data: Array<{ asks: string[][]; bids: string[][] }> };
    const side = msg.data[0]!.asks.length > 0 ? msg.data[0]!.asks : msg.data[0]!.bids;
    side[0]![1] = side[0]![1] === '1' ? '2' : '1';
    src[bad] = `${src[bad]!.slice(0, i)}: ${JSON.stringify(msg)}`;
    const file = join(tmp, 'OKX.corrupt');
    writeFileSync(file, src.join('\n'));
    const o = { file, symbol: 'BTC-USDT', intervalMs: 200, limit: 25, out: join(tmp, 'corrupt.jsonl.gz'), market: okxMarket };
    const error = await importCryptofeed(o).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_CAPTURE_FORMAT' });
    expect((error as Error).message).toContain(`${file}:${bad + 1}: okx checksum`);
    expect(existsSync(o.out)).toBe(false);
  });

  it('a lost Kraken update fails the checksum of the next one', async () => {
    const src = readFileSync(KRAKEN_FILE, 'utf8').split('\n');
    // an update at a price near the touch (56,119 / 56,218 at the start), so inside the checksum's top 10
    const lost = src.findIndex((l, n) => n > 100 && l.endsWith('"book-1000","XBT/CHF"]') && l.includes('"c":') && /\[\["561\d\d\.\d+"/.test(l));
    const file = join(tmp, 'KRAKEN.lost');
    writeFileSync(file, src.filter((_, n) => n !== lost).join('\n'));
    const o = { file, symbol: 'XBT/CHF', intervalMs: 500, limit: 25, out: join(tmp, 'lost.jsonl.gz'), market: krakenMarket };
    await expect(importCryptofeed(o)).rejects.toThrow(/KRAKEN\.lost:\d+: kraken checksum \d+ does not match/);
    expect(existsSync(o.out)).toBe(false);
  });

  it('a capture of several instruments needs --symbol; a line that is not a frame names its line', async () => {
    await expect(importCryptofeed({ file: KRAKEN_FILE, intervalMs: 500, limit: 25, out: join(tmp, 'x.jsonl.gz'), market: krakenMarket })).rejects.toThrow(
      /holds the books of .*XBT\/CHF.*--symbol/,
    );
    const file = join(tmp, 'garbled');
    const src = readFileSync(OKX_FILE, 'utf8').split('\n');
    src[20] = src[20]!.slice(0, 60);
    writeFileSync(file, src.join('\n'));
    await expect(importCryptofeed({ file, symbol: 'BTC-USDT', intervalMs: 200, limit: 25, out: join(tmp, 'y.jsonl.gz'), market: okxMarket })).rejects.toThrow(
      `${file}:21: JSON does not parse`,
    );
  });
});

describe('Kraken book depth', () => {
  it('keeps the book to the subscribed depth (Kraken drops levels pushed out by an insert)', () => {
    const book = new LevelBook(1);
    const frame = (snapshot: boolean, bids: string[][], asks: string[][]) => ({
      kind: 'book' as const,
      venue: 'kraken' as const,
      symbol: 'XBT/CHF',
      t: 0,
      snapshot,
      bids: bids as Array<[string, string]>,
      asks: asks as Array<[string, string]>,
      checksum: undefined,
      depth: 2,
    });
    applyCryptofeedBook(
      book,
      frame(
        true,
        [
          ['10.0', '1'],
          ['9.0', '1'],
        ],
        [
          ['11.0', '1'],
          ['12.0', '1'],
        ],
      ),
      'x:1',
    );
    applyCryptofeedBook(book, frame(false, [['9.5', '2']], [['10.5', '2']]), 'x:2');
    expect(book.top(5)).toEqual({
      bids: [
        ['10.0', '1'],
        ['9.5', '2'],
      ],
      asks: [
        ['10.5', '2'],
        ['11.0', '1'],
      ],
    });
  });
});
