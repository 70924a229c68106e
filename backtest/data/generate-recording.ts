/**
 * A seeded synthetic recording in the recorder's format, for benchmarks (a long day without recording
 * one in real time) and tests: a mid that random-walks in whole ticks, `levels` levels a side one tick
 * apart from a one-tick spread, random quantities. Deterministic given the options.
 */
import type { WireLevel, WireMarket } from '../../src/venue/wire.js';
import { createPrng } from '../../src/sim/prng.js';
import { RecordingWriter } from '../../src/recording/recording-writer.js';

export interface GenerateOptions {
  readonly out: string;
  readonly market: WireMarket;
  readonly snapshots: number;
  readonly intervalMs: number;
  readonly startT: number;
  /** Mid in ticks at the start. */
  readonly startTicks: number;
  readonly levels?: number;
  /** Standard deviation of the mid's move per snapshot, in ticks. Default 2. */
  readonly stepTicks?: number;
  readonly seed?: number;
  /** Smallest level quantity; quantities are uniform in [minQty, minQty + 2). Default 0.001. */
  readonly minQty?: number;
}

export async function generateRecording(o: GenerateOptions): Promise<void> {
  const rnd = createPrng(o.seed ?? 1);
  const levels = o.levels ?? 20;
  const pricePrec = Number(o.market.moneyPrec);
  const amountPrec = Number(o.market.stockPrec);
  const scale = 10 ** pricePrec;
  const writer = new RecordingWriter({ out: o.out, market: o.market, source: 'generated', flushEvery: 10_000 });
  let bid = o.startTicks;
  const px = (ticks: number): string => (ticks / scale).toFixed(pricePrec);
  const qty = (): string => ((o.minQty ?? 0.001) + rnd.next() * 2).toFixed(Math.min(amountPrec, 6));
  for (let i = 0; i < o.snapshots; i++) {
    bid += Math.round(rnd.normal() * (o.stepTicks ?? 2));
    // occasionally the spread widens by a tick or two
    const ask = bid + 1 + (rnd.next() < 0.2 ? rnd.int(3) : 0);
    const bids: WireLevel[] = [];
    const asks: WireLevel[] = [];
    for (let k = 0; k < levels; k++) {
      bids.push([px(bid - k), qty()]);
      asks.push([px(ask + k), qty()]);
    }
    const t = o.startT + i * o.intervalMs;
    writer.write({ type: 'book', t, book: { ticker_id: o.market.name, timestamp: Math.floor(t / 1000), asks, bids } });
  }
  await writer.close();
}
