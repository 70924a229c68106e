/**
 * Test harness for the parity check: the daemon's runtime trading over real loopback HTTP (the real
 * RestClient) against the simulated exchange, whose market is a recording replayed by the recorded
 * flow — all on ONE virtual clock advanced in lock-step: time only moves when no HTTP request is in
 * flight, so the run is deterministic and comparable with the backtest engine's.
 */
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Decimal } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { SessionRecorder } from '../../src/app/session-recorder.js';
import { createRuntime, type PollingOptions, type RuntimeStrategy } from '../../src/engine/runtime.js';
import { SimExchange } from '../../src/sim/exchange.js';
import { createSimServer } from '../../src/sim/http/server.js';
import { createRecordedFlow, type RecordedBooks } from '../../src/sim/recorded-flow.js';
import { parseSimConfig } from '../../src/sim/sim-config.js';
import type { Intent } from '../../src/strategy/intents.js';
import { RateLimiter } from '../../src/venue/rate-limiter.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { TradingApi } from '../../src/venue/trading-api.js';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';

export interface LockstepResult {
  readonly intents: Array<{ t: number; intent: Intent }>;
  readonly fills: Deal[];
  readonly requests: number;
  /** The runtime's journal, as the daemon would have written it. */
  readonly journal: readonly JournalRecord[];
}

/** Requests in flight; `idle` is called (once) when the last one comes back. */
interface Inflight {
  n: number;
  total: number;
  idle: (() => void) | undefined;
}

/** Wraps every call so the driver knows when the engine waits on the network. */
function counting(api: TradingApi, inflight: Inflight): TradingApi {
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      inflight.n += 1;
      inflight.total += 1;
      try {
        return await fn(...a);
      } finally {
        inflight.n -= 1;
        if (inflight.n === 0 && inflight.idle !== undefined) {
          const idle = inflight.idle;
          inflight.idle = undefined;
          idle();
        }
      }
    };
  return {
    ping: wrap(() => api.ping()),
    markets: wrap(() => api.markets()),
    orderBook: wrap((m, q) => api.orderBook(m, q)),
    tradeBalance: wrap((t) => api.tradeBalance(t)),
    placeLimit: wrap((r) => api.placeLimit(r)),
    placeStopLimit: wrap((r) => api.placeStopLimit(r)),
    cancel: wrap((r) => api.cancel(r)),
    openOrders: wrap((q) => api.openOrders(q)),
    deals: wrap((q) => api.deals(q)),
  };
}

export async function runDaemonAgainstReplayingSim(o: {
  books: RecordedBooks;
  balances: Readonly<Record<string, Decimal>>;
  strategies: readonly RuntimeStrategy[];
  polling: PollingOptions;
  /** `record: { path }` of the daemon: the books it polls go into this file through the daemon's own session recorder. */
  record?: string;
}): Promise<LockstepResult> {
  const w = o.books.market;
  const trade = Object.fromEntries(Object.entries(o.balances).map(([k, v]) => [k, v.toFixed()]));
  const config = parseSimConfig({
    markets: [
      {
        name: w.name,
        stock: w.stock,
        money: w.money,
        stockPrec: Number(w.stockPrec),
        moneyPrec: Number(w.moneyPrec),
        minAmount: w.minAmount,
        minTotal: w.minTotal,
        maxTotal: w.maxTotal,
        makerFee: w.makerFee,
        takerFee: w.takerFee,
      },
    ],
    accounts: [
      { name: 'trader', apiKey: 'trader-key-0001', apiSecret: 'trader-secret-0001', trade },
      { name: 'market', internal: true, trade: { [w.stock]: '1000000000', [w.money]: '1000000000000000' } },
    ],
  });
  const first = o.books.snapshots[0]!.t;
  const scheduler = new SteppingScheduler(first);
  const now = (): number => scheduler.now();
  const exchange = new SimExchange(config, now);
  const { server } = createSimServer({ exchange, clock: now });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const limiter = new RateLimiter({
    marginMs: 0,
    clock: {
      now,
      setTimer: (ms, fn) => {
        const s = scheduler.schedule(fn, Math.max(0, ms));
        return () => s.unsubscribe();
      },
    },
  });
  const client = new RestClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'trader-key-0001', apiSecret: 'trader-secret-0001', rateLimiter: limiter });
  const inflight: Inflight = { n: 0, total: 0, idle: undefined };
  const flow = createRecordedFlow({ books: o.books, account: 'market', startAt: first });
  const intents: LockstepResult['intents'] = [];
  const fills: Deal[] = [];
  const journal = new MemoryJournal();
  const market = exchange.markets.get(w.name)!;
  const logger = pino({ level: 'silent' });
  const recorder =
    o.record === undefined
      ? undefined
      : await SessionRecorder.open({
          path: o.record,
          markets: [market],
          tradesMs: o.polling.bookMs,
          scheduler,
          clock: { now },
          logger,
          source: 'lockstep daemon polls',
          resume: false,
        });
  const api = counting(client, inflight);
  const runtime = createRuntime({
    api,
    ...(recorder === undefined ? {} : { onPolled: recorder.onBook }),
    scheduler,
    clock: { now },
    logger,
    markets: new Map([[w.name, market]]),
    strategies: o.strategies,
    polling: o.polling,
    journal,
    cancelOnStop: true,
  });
  runtime.events$.subscribe((e) => {
    if (e.type === 'intent') intents.push({ t: e.at, intent: e.intent });
    if (e.type === 'fill') fills.push(e.deal);
  });
  // Let every promise chain settle and every request come back before time moves. Waiting for the last response
  // itself, not polling every millisecond (parity.test took 10.7 s of wall time so for 4.2 s of CPU, 4.5 s after).
  const settle = async (): Promise<void> => {
    for (;;) {
      // after the last response too: what its caller does next (maybe another request) runs first
      await new Promise((r) => setImmediate(r));
      if (inflight.n === 0) return;
      await new Promise<void>((r) => (inflight.idle = r));
    }
  };
  try {
    flow.step(exchange, first);
    let started = false;
    // a failed start or stop is held and thrown once the clock has stopped driving (a caught value may be anything)
    const failed: { held?: { readonly error: unknown } } = {};
    const rethrow = (): void => {
      if (failed.held !== undefined) throw failed.held.error;
    };
    runtime.start().then(
      () => (started = true),
      (error: unknown) => (failed.held ??= { error }),
    );
    let next = 1;
    const snaps = o.books.snapshots;
    for (;;) {
      await settle();
      const due = scheduler.nextDue();
      const ts = snaps[next]?.t;
      if (ts !== undefined && (due === undefined || ts <= due)) {
        scheduler.advanceTo(ts);
        flow.step(exchange, ts);
        exchange.tick(ts);
        next += 1;
        continue;
      }
      if (ts === undefined) break;
      scheduler.runNext();
    }
    rethrow();
    if (!started) throw new Error('runtime did not start');
    let stopped = false;
    runtime.stop({ cancelOpenOrders: true }).then(
      () => (stopped = true),
      (error: unknown) => (failed.held ??= { error }),
    );
    const deadline = scheduler.now() + 60_000;
    for (;;) {
      await settle();
      if (stopped || failed.held !== undefined || !scheduler.runNext(deadline)) break;
    }
    rethrow();
    return { intents, fills, requests: inflight.total, journal: journal.records() };
  } finally {
    await recorder?.close();
    client.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
