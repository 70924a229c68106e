import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listSeries, RecordingWriter } from '../../src/recording/recording-writer.js';
import {
  decodeLine,
  encodeLine,
  readRecordingLines,
  RecordedSnapshot,
  RecordingFormatError,
  type RecordingLine,
} from '../../src/recording/recording-format.js';
import { btcUsdtWireMarket } from '../backtest/fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-format-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const market = btcUsdtWireMarket();
const book = (t: number, bid = '100.5'): RecordingLine => ({
  type: 'book',
  t,
  book: {
    ticker_id: 'BTC_USDT',
    timestamp: Math.floor(t / 1000),
    bids: [
      [bid, '1.25'],
      ['100.4', '2'],
    ],
    asks: [['100.6', '0.5']],
  },
});
async function readAll(file: string): Promise<RecordingLine[]> {
  const out: RecordingLine[] = [];
  for await (const l of readRecordingLines(file)) out.push(l);
  return out;
}

describe('recording format', () => {
  it('round-trips every line type and skips unknown ones', () => {
    const lines: RecordingLine[] = [
      { type: 'market', version: 1, market },
      book(1000),
      { type: 'trade', t: 1001, price: '100.5', amount: '0.1', side: 'sell' },
    ];
    for (const l of lines) expect(decodeLine(encodeLine(l))).toEqual(l);
    expect(decodeLine('{"type":"future-thing","x":1}')).toBeUndefined();
    expect(decodeLine('')).toBeUndefined();
    expect(() => decodeLine('{"type":"book","t":"x"}', 'f:3')).toThrow(RecordingFormatError);
    expect(() => decodeLine('{nope', 'f:4')).toThrow(/f:4: not JSON/);
  });

  it('gives lazy domain views of a snapshot', () => {
    const s = new RecordedSnapshot(1000, (book(1000) as Extract<RecordingLine, { type: 'book' }>).book, 100);
    expect(s.bidTicks()).toEqual([10050, 10040]);
    expect(s.askTicks()).toEqual([10060]);
    const ob = s.toOrderBook('BTC_USDT', 1);
    expect(ob.bids).toHaveLength(1);
    expect(ob.bids[0]!.price.toFixed()).toBe('100.5');
    expect(ob.bids[0]!.amount.toFixed()).toBe('1.25');
  });

  it('resumes an existing file by appending a gzip member; the reader reads through both', async () => {
    const out = join(tmp, 'resume.jsonl.gz');
    const w1 = new RecordingWriter({ out, market });
    w1.write(book(1000));
    w1.write(book(2000));
    await w1.close();
    const size1 = statSync(out).size;
    const w2 = new RecordingWriter({ out, market });
    w2.write(book(3000));
    await w2.close();
    expect(statSync(out).size).toBeGreaterThan(size1);
    const lines = await readAll(out);
    expect(lines.map((l) => l.type)).toEqual(['market', 'book', 'book', 'market', 'book']);
    expect(lines.filter((l) => l.type === 'book').map((l) => (l as { t: number }).t)).toEqual([1000, 2000, 3000]);
  });

  it('rotates into a numbered series by size and continues the series on resume', async () => {
    const out = join(tmp, 'rot.jsonl.gz');
    const w = new RecordingWriter({ out, market, rotate: { maxBytes: 600 } });
    for (let i = 0; i < 10; i++) w.write(book(1000 * (i + 1)));
    await w.close();
    const parts = listSeries(out);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts[0]).toMatch(/rot\.0001\.jsonl\.gz$/);
    let books = 0;
    for (const p of parts) {
      const lines = await readAll(p);
      expect(lines[0]!.type).toBe('market'); // every part carries the rules record
      books += lines.filter((l) => l.type === 'book').length;
    }
    expect(books).toBe(10);
    const w2 = new RecordingWriter({ out, market, rotate: { maxBytes: 600 } });
    w2.write(book(99_000));
    await w2.close();
    expect(w2.files[0]).toBe(join(tmp, `rot.${String(parts.length + 1).padStart(4, '0')}.jsonl.gz`));
  });

  it('rotates by time', async () => {
    const out = join(tmp, 'time.jsonl.gz');
    const w = new RecordingWriter({ out, market, rotate: { maxMs: 2500 } });
    for (let i = 0; i < 6; i++) w.write(book(1000 * i));
    await w.close();
    expect(w.files).toHaveLength(2);
  });

  it('rotates at each UTC midnight (daily), alone or beside a size limit', async () => {
    const day = 86_400_000;
    const at = (d: number, h: number) => Date.UTC(2026, 0, 1) + d * day + h * 3_600_000;
    const out = join(tmp, 'daily.jsonl.gz');
    const w = new RecordingWriter({ out, market, rotate: { daily: true } });
    for (const t of [at(0, 1), at(0, 23), at(1, 0), at(1, 12), at(3, 5)]) w.write(book(t));
    await w.close();
    expect(w.files.map((f) => f.slice(tmp.length + 1))).toEqual(['daily.0001.jsonl.gz', 'daily.0002.jsonl.gz', 'daily.0003.jsonl.gz']);
    const days = await Promise.all(w.files.map(async (f) => (await readAll(f)).flatMap((l) => (l.type === 'book' ? [new Date(l.t).getUTCDate()] : []))));
    expect(days).toEqual([[1, 1], [2, 2], [4]]);
    const both = new RecordingWriter({ out: join(tmp, 'both.jsonl.gz'), market, rotate: { daily: true, maxBytes: 600 } });
    for (let i = 0; i < 6; i++) both.write(book(at(0, i)));
    both.write(book(at(1, 0)));
    await both.close();
    expect(both.files.length).toBeGreaterThan(2);
    expect((await readAll(both.files.at(-1)!)).filter((l) => l.type === 'book').map((l) => (l as { t: number }).t)).toEqual([at(1, 0)]);
  });

  it('tells a failed write to onError once per file, and still closes', async () => {
    const out = join(tmp, 'gone', 'x.jsonl.gz');
    const errors: string[] = [];
    const w = new RecordingWriter({ out, market, onError: (e, path) => errors.push(`${(e as NodeJS.ErrnoException).code} ${path}`) });
    rmSync(join(tmp, 'gone'), { recursive: true });
    w.write(book(1000));
    w.write(book(2000));
    await w.close();
    expect(errors).toEqual([`ENOENT ${out}`]);
  });

  it('keeps the complete lines of a recording whose last member was cut off (recorder killed)', async () => {
    const out = join(tmp, 'cut.jsonl.gz');
    const w = new RecordingWriter({ out, market, flushEvery: 1 });
    for (let i = 0; i < 20; i++) w.write(book(1000 * i));
    await w.close();
    const full = readFileSync(out);
    truncateSync(out, full.length - 30);
    const lines = await readAll(out);
    expect(lines[0]!.type).toBe('market');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.length).toBeLessThanOrEqual(21);
    // garbage that is not gzip at all is an error, not silence
    const bad = join(tmp, 'bad.jsonl.gz');
    appendFileSync(bad, 'this is not gzip');
    await expect(readAll(bad)).rejects.toThrow(RecordingFormatError);
  });
});
