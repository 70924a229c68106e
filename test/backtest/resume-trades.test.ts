import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecordingTail } from '../../backtest/record/resume-trades.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';
import type { OrderBookResponse } from '../../src/venue/wire.js';
import { btcUsdtWireMarket } from './fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'bt-resume-trades-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const book = (): OrderBookResponse => ({ ticker_id: 'BTC_USDT', timestamp: 1, bids: [['100', '1']], asks: [['101', '1']] });

async function write(out: string, from: number, n: number, rotate?: { maxMs: number }): Promise<void> {
  const w = new RecordingWriter({ out, market: btcUsdtWireMarket(), trades: true, ...(rotate ? { rotate } : {}) });
  for (let i = from; i < from + n; i++) {
    w.write({ type: 'trade', t: i * 100, price: '100.5', amount: '0.1', side: 'buy', id: 5000 + i });
    if (i % 3 === 0) w.write({ type: 'book', t: i * 100 + 1, book: book() });
  }
  await w.close();
}

describe('readRecordingTail (what a resumed recorder reads back)', () => {
  it('a plain file resumed once: the last ids over both gzip members, the last time', async () => {
    const out = join(tmp, 'plain.jsonl.gz');
    await write(out, 0, 30);
    await write(out, 30, 20);
    const tail = await readRecordingTail(out, false, 25);
    expect(tail.tradeIds).toEqual(Array.from({ length: 25 }, (_, k) => 5025 + k));
    expect(tail.lastT).toBe(49 * 100);
  });

  it('a rotated series: the newest parts', async () => {
    const out = join(tmp, 'series.jsonl.gz');
    await write(out, 0, 40, { maxMs: 1000 }); // a part per second of t: four parts
    const tail = await readRecordingTail(out, true, 1000);
    // the last two parts hold t 2000-3900 (ids 5020-5039); the tail keeps them all
    expect(tail.tradeIds).toEqual(Array.from({ length: 20 }, (_, k) => 5020 + k));
    expect(tail.lastT).toBe(3901);
  });

  it('nothing to resume: no ids, no time', async () => {
    expect(await readRecordingTail(join(tmp, 'none.jsonl.gz'), false)).toEqual({ tradeIds: [], lastT: undefined });
    expect(await readRecordingTail(join(tmp, 'none.jsonl.gz'), true)).toEqual({ tradeIds: [], lastT: undefined });
  });
});
