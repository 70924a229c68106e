import { pino } from 'pino';
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamFeed } from '../../src/app/upstream-feed.js';
import type { PublicTrade } from '../../src/model/book.js';
import type { EndpointFaults } from '../../src/sim/http/faults.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { startSim, type SimHandle } from '../../src/sim/start-sim.js';
import { RestClient } from '../../src/venue/rest-client.js';

/**
 * The paper venue's upstream polls against a real upstream (a sim over loopback, with its faults and lies): what
 * reaches the live flow, and what does not. The client has no key, as the paper venue's.
 */
const M = 'BTC_USDT';
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

async function setup(faults?: EndpointFaults) {
  let bookAnswers = 0;
  const upstream: SimHandle = await startSim({
    config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: 10 }),
    ...(faults ? { faults: { endpoints: { orderbook: faults } } } : {}),
    onRequest: (e) => {
      if (e.endpoint === 'orderbook') bookAnswers += 1;
    },
  });
  upstream.faults.setEnabled(false);
  open.push(upstream);
  const api = new RestClient({ baseUrl: upstream.baseUrl, timeoutMs: 300, retry: { limit: 0 } });
  open.push({ close: () => api.close() });
  const feed = new UpstreamFeed({ api, markets: [M], bookMs: 100, tradesMs: 200, bookLimit: 20, scheduler: asyncScheduler, logger: pino({ level: 'silent' }) });
  open.push({ close: () => feed.stop() });
  feed.start();
  expect(await feed.firstBooks(5000)).toBe(true);
  /** Waits until the upstream has answered `n` more book requests. */
  const answers = async (n: number): Promise<void> => {
    const target = bookAnswers + n;
    const deadline = Date.now() + 20_000;
    while (bookAnswers < target) {
      if (Date.now() > deadline) throw new Error(`the upstream answered ${bookAnswers} of ${target} book requests`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** Waits for the next book handed over. */
  const nextBook = async () => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const b = feed.takeBook(M);
      if (b !== undefined) return b;
      if (Date.now() > deadline) throw new Error('no book handed over');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /**
   * Drains the feed until two answers in a row hand nothing over: a book that was on its way when the fault began
   * (answered before it, handed over a moment later on a loaded machine) is through. A feed that goes on handing books
   * over fails here.
   */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 10; i++) {
      feed.takeBook(M);
      await answers(2);
      if (feed.takeBook(M) === undefined) return;
    }
    throw new Error('the feed handed a book over after every two answers, ten times');
  };
  return { upstream, feed, answers, nextBook, settle };
}

describe('upstream feed (the paper venue’s polls)', () => {
  it('hands over the upstream’s books, and its trades once each, oldest first', async () => {
    const { feed, nextBook } = await setup();
    let book = await nextBook();
    while (book.bids.length === 0) book = await nextBook(); // the upstream's flow quotes a moment after its start
    expect(book.asks.length).toBeGreaterThan(0);
    expect(book.asks.length).toBeLessThanOrEqual(20);
    const trades: PublicTrade[] = [];
    const deadline = Date.now() + 20_000;
    while (trades.length < 10 && Date.now() < deadline) {
      trades.push(...feed.takeTrades(M));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(trades.length).toBeGreaterThanOrEqual(10);
    expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
    expect(trades.map((t) => t.id)).toEqual([...trades.map((t) => t.id)].sort((a, b) => a - b));
  });

  const lost: Array<[string, EndpointFaults]> = [
    ['503s', { error5xx: 1 }],
    ['garbage', { garbage: 1 }],
    ['timeouts', { timeout: 1, timeoutMs: 600 }],
  ];
  it.each(lost)('hands over no book while the upstream answers %s, and books again once it answers', async (_name, faults) => {
    const { upstream, feed, answers, nextBook, settle } = await setup(faults);
    upstream.faults.setEnabled(true);
    await settle();
    await answers(3);
    expect(feed.takeBook(M)).toBeUndefined();
    upstream.faults.setEnabled(false);
    expect((await nextBook()).market).toBe(M);
  });

  it('takes a crossed book for garbage, and one book repeated (its timestamp standing still) for no news', async () => {
    const { upstream, feed, answers, nextBook, settle } = await setup();
    // a book with both sides first: the upstream's flow quotes a moment after its start, and an empty book cannot be
    // crossed (the lie then answers the empty book as it is, which is news: failed so on a loaded machine)
    for (let b = await nextBook(); b.bids.length === 0 || b.asks.length === 0; b = await nextBook());
    // episodes far longer than the test (sim time runs 10x), so none ends under a loaded machine's delays
    const crossed = upstream.lies.startEpisode('crossedBook', { forMs: 600_000, market: M });
    await settle();
    await answers(3);
    expect(feed.takeBook(M)).toBeUndefined();
    upstream.lies.setEnabled(false);
    await nextBook();
    expect(crossed.kind).toBe('crossedBook');

    upstream.lies.setEnabled(true);
    upstream.lies.startEpisode('frozenBook', { forMs: 600_000, market: M });
    await settle(); // the first frozen answer may be news
    await answers(3);
    expect(feed.takeBook(M)).toBeUndefined();
    upstream.lies.setEnabled(false);
    await nextBook();
  });
});
