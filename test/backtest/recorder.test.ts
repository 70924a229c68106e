import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordBooks } from '../../backtest/record/recorder.js';
import { generateRecording } from '../../backtest/data/generate-recording.js';
import { wireMarketFromOptions } from '../../backtest/importers/binance-depth-importer.js';
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { createRecordedFlow, loadRecordedBooks, simConfigForRecording } from '../../src/sim/recorded-flow.js';
import { DEFAULT_SIM_CONFIG } from '../../src/sim/sim-config.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { readRecordingLines, type RecordingLine } from '../../src/recording/recording-format.js';
import { waitUntil } from '../helpers/wait-until.js';
import { withSim } from '../helpers/with-sim.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-record-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function readAll(file: string): Promise<RecordingLine[]> {
  const out: RecordingLine[] = [];
  for await (const l of readRecordingLines(file)) out.push(l);
  return out;
}

describe('bot record (recorder) against the simulated exchange', () => {
  it('writes the market rules record, then snapshots with receive times; a second run resumes the file', async () => {
    await withSim(async (sim) => {
      const api = new RestClient({ baseUrl: sim.baseUrl });
      try {
        const out = join(tmp, 'sim.jsonl.gz');
        await waitUntil('the synthetic flow’s first quotes', () => {
          const book = sim.exchange.book('BTC_USDT', { limit: 5 });
          return book.bids.length > 0 && book.asks.length > 0;
        });
        const r1 = await recordBooks({ api, market: 'BTC_USDT', intervalMs: 50, limit: 5, count: 4, out });
        expect(r1).toMatchObject({ snapshots: 4, errors: 0 });
        const r2 = await recordBooks({ api, market: 'BTC_USDT', intervalMs: 50, limit: 5, count: 2, out });
        expect(r2.snapshots).toBe(2);
        const lines = await readAll(out);
        expect(lines.map((l) => l.type)).toEqual(['market', 'book', 'book', 'book', 'book', 'market', 'book', 'book']);
        const head = lines[0] as Extract<RecordingLine, { type: 'market' }>;
        // the venue's own rules record: fees in percent, precisions as strings
        expect(head.market).toMatchObject({ name: 'BTC_USDT', stockPrec: '6', moneyPrec: '2', makerFee: '0.1', minTotal: '5.05', maxTotal: '0' });
        const books = lines.filter((l): l is Extract<RecordingLine, { type: 'book' }> => l.type === 'book');
        for (let i = 1; i < books.length; i++) expect(books[i]!.t).toBeGreaterThan(books[i - 1]!.t);
        for (const b of books) {
          expect(b.book.ticker_id).toBe('BTC_USDT');
          expect(b.book.bids.length).toBeLessThanOrEqual(5);
          expect(Number(b.book.bids[0]![0])).toBeLessThan(Number(b.book.asks[0]![0]));
        }
      } finally {
        api.close();
      }
    });
  });

  it('refuses an interval the order book rate limit cannot carry, and an unknown market', async () => {
    await withSim({ flow: false }, async (sim) => {
      const api = new RestClient({ baseUrl: sim.baseUrl });
      try {
        await expect(recordBooks({ api, market: 'BTC_USDT', intervalMs: 10, out: join(tmp, 'x.jsonl.gz') })).rejects.toThrow(/at least 17 ms/);
        await expect(recordBooks({ api, market: 'NOPE_USDT', intervalMs: 1000, out: join(tmp, 'y.jsonl.gz') })).rejects.toBeInstanceOf(ConfigError);
      } finally {
        api.close();
      }
    });
  });
});

describe('the simulated exchange replaying a recording (recorded flow)', () => {
  it('shows the recorded book to clients and moves through the snapshots at the chosen speed', async () => {
    const market = wireMarketFromOptions({
      name: 'BTC_USDT',
      stock: 'BTC',
      money: 'USDT',
      stockPrec: 6,
      moneyPrec: 2,
      minAmount: '0.001',
      minTotal: '5.05',
      makerFeePercent: '0.1',
      takerFeePercent: '0.1',
    });
    const file = join(tmp, 'gen.jsonl.gz');
    await generateRecording({ out: file, market, snapshots: 5, intervalMs: 1000, startT: 1_700_000_000_000, startTicks: 3_000_000, levels: 5, seed: 3 });
    const books = await loadRecordedBooks(file);
    const flow = createRecordedFlow({ books, account: 'market', startAt: 0, speed: 1 });
    // drive the flow by hand (no timer): at t=0 the first snapshot, at 2.5 s the third
    await withSim({ flow: false, config: { ...DEFAULT_SIM_CONFIG, flow: undefined } }, async (sim) => {
      const api = new RestClient({ baseUrl: sim.baseUrl });
      try {
        for (const [at, index] of [
          [0, 0],
          [2500, 2],
        ] as const) {
          flow.step(sim.exchange, at);
          expect(flow.shown).toBe(index);
          const got = sim.exchange.book('BTC_USDT', { limit: 5 });
          const want = books.snapshots[index]!.book;
          expect(got.bids.map((l) => [l.price.toFixed(2), l.amount.toFixed()])).toEqual(want.bids.map(([p, q]) => [p, D(q).toFixed()]));
          expect(got.asks.map((l) => [l.price.toFixed(2), l.amount.toFixed()])).toEqual(want.asks.map(([p, q]) => [p, D(q).toFixed()]));
        }
        // and over HTTP, through the real client, once the sim's 100 ms book cache has let the earlier book go
        const want = books.snapshots[2]!.book.bids[0]![0];
        let shown = '';
        await waitUntil(
          `the third snapshot's best bid ${want} over HTTP (last seen ${shown})`,
          async () => (shown = (await api.orderBook('BTC_USDT', { limit: 5 })).bids[0]!.price.toFixed(2)) === want,
          { everyMs: 20 },
        );
        expect(shown).toBe(want);
      } finally {
        api.close();
      }
    });
  });

  it('runs inside startSim on the sim’s own timer, accelerated, with the recording’s market rules', async () => {
    const market = wireMarketFromOptions({
      name: 'BTC_USDT',
      stock: 'BTC',
      money: 'USDT',
      stockPrec: 5,
      moneyPrec: 2,
      minAmount: '0.00001',
      minTotal: '5',
      makerFeePercent: '0.05',
      takerFeePercent: '0.1',
    });
    const file = join(tmp, 'gen-fast.jsonl.gz');
    await generateRecording({ out: file, market, snapshots: 60, intervalMs: 1000, startT: 1_700_000_000_000, startTicks: 3_000_000, levels: 5, seed: 9 });
    const books = await loadRecordedBooks(file);
    const flow = createRecordedFlow({ books, speed: 20 });
    await withSim({ config: simConfigForRecording(books.market), marketFlow: flow }, async (sim) => {
      const api = new RestClient({ baseUrl: sim.baseUrl });
      try {
        const [m] = (await api.markets()).filter((x) => x.name === 'BTC_USDT');
        expect(m).toMatchObject({ stockPrec: 5 });
        expect(m!.makerFee.toFixed()).toBe('0.0005');
        // 20x: five recorded seconds in a quarter of a real one, on the sim's own timer
        await waitUntil('the sim’s timer to step the recording past its fifth snapshot', () => flow.shown >= 5);
        const ob = await api.orderBook('BTC_USDT', { limit: 5 });
        const shownBids = books.snapshots.slice(0, flow.shown + 1).map((s) => s.book.bids[0]![0]);
        expect(shownBids).toContain(ob.bids[0]!.price.toFixed(2));
      } finally {
        api.close();
      }
    });
  });
});
