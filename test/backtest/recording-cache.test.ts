import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRecordingCache } from '../../backtest/data/recording-cache.js';
import type { RecordingCacheOptions } from '../../backtest/data/cache-settings.js';
import { formatPlainDecimal, parsePlainDecimal } from '../../backtest/data/plain-decimal.js';
import { DataFeed } from '../../backtest/replay/data-feed.js';
import { encodeLine, type RecordingLine } from '../../src/recording/recording-format.js';
import type { WireLevel } from '../../src/venue/wire.js';
import { btcUsdtWireMarket } from './fixtures.js';
import { cacheFiles, longRecording as makeLongRecording, writeRecording } from './cache-recordings.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-cache-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let seq = 0;
const fresh = (name: string): string => join(tmp, `${++seq}-${name}`);
const market = btcUsdtWireMarket();

/** Everything a consumer can see of the feed's events, as plain data (Decimals by their strings). */
async function readEvents(
  file: string,
  cache: RecordingCacheOptions,
  to?: number,
): Promise<{ sources: string[]; events: unknown[]; market?: unknown; error?: string }> {
  const feed = new DataFeed({ files: [file], cache, ...(to === undefined ? {} : { to }) });
  const events: unknown[] = [];
  try {
    for (let e = await feed.next(); e !== undefined; e = await feed.next()) {
      if (e.kind === 'trade') {
        events.push({
          kind: e.kind,
          t: e.t,
          price: e.price.toString(),
          ticks: e.trade.priceTicks,
          amount: e.trade.amount.toString(),
          side: e.trade.takerSide,
          tt: e.trade.t,
        });
        continue;
      }
      const s = e.snapshot;
      const level = (l: { wire: WireLevel; price: { toString(): string }; amount: { toString(): string } }) => [
        l.wire[0],
        l.wire[1],
        l.price.toString(),
        l.amount.toString(),
      ];
      // the level queries: asked before the sides' arrays are built (as the fill model does), and again after
      const levelQueries = () =>
        (['asks', 'bids'] as const).map((side) => {
          const n = s.levelCount(side);
          const at = Array.from({ length: n }, (_, i) => [s.levelTicks(side, i), s.levelPrice(side, i).toString(), s.levelAmount(side, i).toString()]);
          const sums = Array.from({ length: n + 1 }, (_, k) => s.amountSum(side, k).toString());
          return { n, at, sums };
        });
      const queries = levelQueries();
      const ob = s.toOrderBook('X', 2);
      events.push({
        kind: e.kind,
        t: e.t,
        st: s.t,
        scale: s.tickScale,
        timestamp: s.timestamp,
        wire: s.wire,
        askTicks: [...s.askTicks()],
        bidTicks: [...s.bidTicks()],
        asks: s.asks.map(level),
        bids: s.bids.map(level),
        ob: { ts: ob.timestamp, asks: ob.asks.map((l) => l.price.toString()), bids: ob.bids.map((l) => l.amount.toString()) },
        queries,
        queriesBuilt: levelQueries(),
      });
    }
  } catch (error) {
    return { sources: [...feed.sources], events, error: (error as Error).message };
  }
  return { sources: [...feed.sources], events, market: feed.market };
}

// ------------------------------------------------------------------------------------------ generators

/** A decimal string of `int / 10^decimals`, in a format a recorder might write; `weird` gives non-plain ones. */
const decimalString = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.tuple(fc.oneof(fc.nat(1000), fc.nat(10_000_000), fc.maxSafeNat()), fc.nat(10), fc.boolean()).map(([int, d, trim]) => {
      const s = formatPlainDecimal(int, d);
      return trim && s.includes('.') ? s.replace(/\.?0+$/, '') || '0' : s;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom('1e-8', '-0.5', '01.5', '1.', '.5', '12345678901234567890', '0.000000000000000000001', ' 1') },
);

/** Decimal strings of a fixed format per column (the common case: every price with the same decimals). */
const fixedDecimal = (d: number) => fc.oneof(fc.nat(100_000), fc.nat(2 ** 31 + 10)).map((int) => formatPlainDecimal(int, d));

const levels = (price: fc.Arbitrary<string>, amount: fc.Arbitrary<string>) => fc.array(fc.tuple(price, amount), { maxLength: 4 });

function lineArb(fixed: boolean, pd: number, ad: number): fc.Arbitrary<RecordingLine | string> {
  const price = fixed ? fixedDecimal(pd) : decimalString;
  const amount = fixed ? fixedDecimal(ad) : decimalString;
  const t = fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: 1_700_000_000_000, max: 1_700_000_100_000 }) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  );
  const book = fc
    .record({
      t,
      ts: fc.oneof(fc.nat(2_000_000_000), fc.double({ noNaN: true, noDefaultInfinity: true })),
      asks: levels(price, amount),
      bids: levels(price, amount),
      ticker: fc.constantFrom('BTC_USDT', 'ETH_USDT'),
    })
    .map(({ t, ts, asks, bids, ticker }): RecordingLine => ({ type: 'book', t, book: { ticker_id: ticker, timestamp: ts, asks, bids } }));
  const trade = fc.record({ t, price, amount, side: fc.constantFrom('buy' as const, 'sell' as const) }).map((r): RecordingLine => ({ type: 'trade', ...r }));
  const marketLine = fc.constantFrom<RecordingLine>(
    { type: 'market', version: 1, market, source: 'test' },
    { type: 'market', version: 1, market: { ...market, moneyPrec: '4' }, trades: true },
  );
  return fc.oneof(
    { weight: 10, arbitrary: book },
    { weight: 4, arbitrary: trade },
    { weight: 1, arbitrary: marketLine },
    // skipped by both readers: a blank line and a type from the future
    { weight: 1, arbitrary: fc.constantFrom('', '{"type":"future","t":5}') },
    // not cacheable: a book record with a field the cache does not keep
    {
      weight: fixed ? 0 : 1,
      arbitrary: book.map((l) => ({ ...l, book: { ...(l as Extract<RecordingLine, { type: 'book' }>).book, extra: 1 } }) as unknown as RecordingLine),
    },
  );
}

const recordingArb = fc.tuple(fc.boolean(), fc.nat(8), fc.nat(8)).chain(([fixed, pd, ad]) =>
  fc.record({
    startsWithMarket: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    lines: fc.array(lineArb(fixed, pd, ad), { maxLength: 40 }),
    cuts: fc.array(fc.nat(40), { maxLength: 3 }),
    gzip: fc.boolean(),
    blockEvents: fc.integer({ min: 1, max: 6 }),
  }),
);

// ------------------------------------------------------------------------------------------ tests

describe('plain decimals', () => {
  it('parse exactly the strings that format back to themselves', () => {
    const out: [number, number] = [0, 0];
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9.]{1,22}$/), decimalString, fc.string()), (s) => {
        const ok = parsePlainDecimal(s, out);
        if (ok) expect(formatPlainDecimal(out[0], out[1])).toBe(s);
        // every plain decimal of up to 15 digits is accepted
        if (/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(s) && s.replace('.', '').length <= 15) expect(ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('recording cache', () => {
  it('any recording read through the cache yields exactly the events read from the text', async () => {
    await fc.assert(
      fc.asyncProperty(recordingArb, async ({ startsWithMarket, lines, cuts, gzip, blockEvents }) => {
        const all = (startsWithMarket ? [encodeLine({ type: 'market', version: 1, market })] : []).concat(
          lines.map((l) => (typeof l === 'string' ? l : encodeLine(l))),
        );
        const at = [...new Set(cuts.map((c) => Math.min(c, all.length)))].sort((a, b) => a - b);
        const members = [0, ...at].map((from, i, a) => all.slice(from, a[i + 1] ?? all.length));
        const file = fresh(gzip ? 'prop.jsonl.gz' : 'prop.jsonl');
        writeRecording(file, members);
        const dir = fresh('cache');
        const logs: string[] = [];
        const cache = { dir, blockEvents, log: (m: string) => logs.push(m) };
        const text = await readEvents(file, { dir: false });
        const building = await readEvents(file, cache);
        const cached = await readEvents(file, cache);
        expect(building.sources).toEqual(['text']);
        expect(building).toEqual(text);
        expect({ ...cached, sources: [] }).toEqual({ ...text, sources: [] });
        const notCacheable =
          lines.some((l) => typeof l !== 'string' && l.type === 'book' && 'extra' in l.book) ||
          all.some((l) => /"(1e-8|-0\.5|01\.5|1\.|\.5|12345678901234567890|0\.000000000000000000001| 1)"/.test(l));
        // a recording that stops with an error is not cached (the read did not reach the end)
        const expectCache = !notCacheable && text.error === undefined;
        expect(cached.sources).toEqual([expectCache ? 'cache' : 'text']);
        expect(cacheFiles(dir)).toHaveLength(expectCache ? 1 : 0);
        if (notCacheable && text.error === undefined) expect(logs.join('\n')).toMatch(/cannot be stored exactly/);
      }),
      { numRuns: 150 },
    );
  });

  /** A recording long enough for several blocks, with trades; returns the file. */
  const longRecording = (name: string, n?: number, seed?: number): string => makeLongRecording(fresh(name), n, seed);

  it('is keyed by content: a source rewritten with the same size and mtime is not served stale', async () => {
    const file = longRecording('stale.jsonl');
    const dir = fresh('cache');
    const cache = { dir, blockEvents: 64 };
    utimesSync(file, 1_700_000_000, 1_700_000_000); // whole seconds: restored exactly below
    await readEvents(file, cache);
    const first = await readEvents(file, cache);
    expect(first.sources).toEqual(['cache']);
    const st = statSync(file);
    const text = readFileSync(file, 'utf8');
    // same length: one digit of one amount changes
    writeFileSync(file, text.replace('"2.00000"', '"3.00000"'));
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(statSync(file).size).toBe(st.size);
    expect(statSync(file).mtimeMs).toBe(st.mtimeMs);
    const after = await readEvents(file, cache);
    expect(after.sources).toEqual(['text']);
    expect(after).toEqual({ ...(await readEvents(file, { dir: false })), sources: ['text'] });
    expect(JSON.stringify(after.events)).toContain('3.00000');
    expect((await readEvents(file, cache)).sources).toEqual(['cache']);
    // the cache of the old content was removed when the new one was written
    expect(cacheFiles(dir)).toHaveLength(1);
  });

  it('a damaged block is never trusted: the rest of the file comes from the text, and the cache is rebuilt', async () => {
    const file = longRecording('damaged.jsonl.gz');
    const dir = fresh('cache');
    const logs: string[] = [];
    const cache = { dir, blockEvents: 64, log: (m: string) => logs.push(m) };
    const text = await readEvents(file, { dir: false });
    await readEvents(file, cache);
    const [name] = cacheFiles(dir);
    const path = join(dir, name!);
    const bytes = readFileSync(path);
    const mid = Math.floor(bytes.length / 2); // inside a middle block
    bytes[mid] = bytes[mid]! ^ 0x55;
    writeFileSync(path, bytes);
    const read = await readEvents(file, cache);
    expect(read.events).toEqual(text.events);
    expect(read.sources).toEqual(['text']);
    expect(logs.join('\n')).toMatch(/checksum mismatch.*reading .* as text from line \d+ on/);
    expect((await readEvents(file, cache)).sources).toEqual(['cache']);
  });

  it('a truncated or foreign cache file is ignored and rebuilt', async () => {
    const file = longRecording('truncated.jsonl.gz');
    const dir = fresh('cache');
    const logs: string[] = [];
    const cache = { dir, blockEvents: 50, log: (m: string) => logs.push(m) };
    const text = await readEvents(file, { dir: false });
    await readEvents(file, cache);
    const path = join(dir, cacheFiles(dir)[0]!);
    truncateSync(path, statSync(path).size - 100);
    const read = await readEvents(file, cache);
    expect(read).toEqual({ ...text, sources: ['text'] });
    expect(logs.join('\n')).toMatch(/ignoring the cache .*truncated/);
    expect((await readEvents(file, cache)).sources).toEqual(['cache']);
    writeFileSync(path, 'V4TRCACH but not really a cache file at all, just text');
    expect(await readEvents(file, cache)).toEqual({ ...text, sources: ['text'] });
    expect(logs.join('\n')).toMatch(/format version/);
  });

  it('a read cut short (--to) builds no cache; an unwritable cache directory only costs the cache', async () => {
    const file = longRecording('cut.jsonl.gz');
    const dir = fresh('cache');
    const cut = await readEvents(file, { dir }, 1_700_000_050_000);
    expect(cut.events.length).toBeGreaterThan(10);
    expect(cacheFiles(dir)).toHaveLength(0);
    const notADir = fresh('file-not-dir');
    writeFileSync(notADir, 'x');
    const logs: string[] = [];
    const read = await readEvents(file, { dir: join(notADir, 'sub'), log: (m) => logs.push(m) });
    expect(read).toEqual({ ...(await readEvents(file, { dir: false })), sources: ['text'] });
    expect(logs.join('\n')).toMatch(/not caching/);
  });

  it('buildRecordingCache builds, then finds the cache valid; a file it cannot store exactly is skipped with the reason', async () => {
    const file = longRecording('explicit.jsonl.gz');
    const dir = fresh('cache');
    const built = await buildRecordingCache(file, { dir, log: () => undefined });
    expect(built).toMatchObject({ status: 'built', events: 401 });
    expect(await buildRecordingCache(file, { dir, log: () => undefined })).toMatchObject({ status: 'valid', events: 401 });
    expect((await readEvents(file, { dir })).sources).toEqual(['cache']);
    const odd = fresh('odd.jsonl');
    writeRecording(odd, [[encodeLine({ type: 'market', version: 1, market }), encodeLine({ type: 'trade', t: 1, price: '1e-8', amount: '1', side: 'buy' })]]);
    const skipped = await buildRecordingCache(odd, { dir, log: () => undefined });
    expect(skipped).toMatchObject({ status: 'skipped' });
    expect(skipped.status === 'skipped' && skipped.reason).toMatch(/trade price "1e-8"/);
  });
});
