import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { recordingInfo } from '../../backtest/data/recording-info.js';
import { buildParity } from '../../backtest/parity/run-parity.js';
import { runBacktestFromConfig } from '../../backtest/run-from-config.js';
import { runDaemon } from '../../src/app/daemon.js';
import { readRecordingLines, type RecordingLine } from '../../src/recording/recording-format.js';
import { listSeries } from '../../src/recording/recording-writer.js';
import { loadRecordedBooks } from '../../src/sim/recorded-flow.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig } from '../../src/sim/sim-config.js';
import { startSim } from '../../src/sim/start-sim.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * Issue #25 item 3: `record: { path, rotate? }` writes the public data a daemon polled, in the recorder's format,
 * which `bot backtest`, `bot sim --replay` and `bot data info` read. Real-time daemons against sims on loopback.
 */
const dir = mkdtempSync(join(tmpdir(), 'session-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strategy = [
  'strategies:',
  '  - id: mm-btc',
  '    use: market-maker',
  '    market: BTC_USDT',
  '    params: { spread: 0.0002, size: 0.002, levels: 1, maxInventory: 0.02, refreshThreshold: 0.0001 }',
  '    risk: { maxOrderNotional: 1000, maxInventory: { BTC: 0.05 }, maxLoss: 1000 }',
];

async function lines(files: readonly string[]): Promise<RecordingLine[]> {
  const out: RecordingLine[] = [];
  for (const f of files) for await (const l of readRecordingLines(f)) out.push(l);
  return out;
}

const run = (configPath: string, ms: number) => runDaemon({ configPath, env: {}, out: new PassThrough(), until: new Promise((r) => setTimeout(r, ms)) });

describe('record: every session can be replayed', () => {
  it('writes the polled books and the market’s trades, rotated by size, into files bot backtest, bot parity, bot data info and bot sim --replay read', async () => {
    const rec = join(dir, 'rec');
    const configPath = join(dir, 'sim.yaml');
    writeFileSync(
      configPath,
      [
        'venue: { kind: sim, sim: { speed: 10 } }',
        ...strategy,
        'polling: { bookMs: 200, bookLimit: 10 }',
        `journal: { path: ${join(dir, 'sim.jsonl')} }`,
        'log: { level: silent }',
        `record: { path: ${rec}, rotate: { maxBytes: 10k } }`,
      ].join('\n'),
    );
    // until the recording has rotated twice (the first two parts complete), not a fixed time: a loaded machine polls less
    const out = join(rec, 'BTC_USDT.jsonl.gz');
    const rotated = waitUntil('the recording in three parts', () => listSeries(out).length >= 3, { timeoutMs: 30_000, everyMs: 50 });
    await runDaemon({
      configPath,
      env: {},
      out: new PassThrough(),
      until: rotated.then(
        () => 'rotated',
        () => 'timed out',
      ),
    });

    const parts = listSeries(out);
    expect(parts.length, 'rotated by size').toBeGreaterThan(1);
    const all = await lines(parts);
    const books = all.filter((l) => l.type === 'book');
    const trades = all.filter((l) => l.type === 'trade');
    expect(all.filter((l) => l.type === 'market')).toHaveLength(parts.length); // each part has the rules at its head
    expect(books.length).toBeGreaterThan(15);
    expect(trades.length).toBeGreaterThan(0);
    expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
    const times = all.flatMap((l) => (l.type === 'market' ? [] : [l.t]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(books[0]!.book.bids.length).toBeLessThanOrEqual(10);

    // bot data info
    for (const p of parts) {
      const info = await recordingInfo(p);
      expect([info.market, info.tradesComplete, info.timeReversals, info.crossedBooks]).toEqual(['BTC_USDT', true, 0, 0]);
    }
    // bot sim --replay
    expect((await loadRecordedBooks(parts[0]!)).snapshots.length).toBeGreaterThan(0);
    // bot backtest
    const btConfig = join(dir, 'bt.yaml');
    writeFileSync(
      btConfig,
      [
        'balances: { BTC: 1, USDT: 100000 }',
        'fills: [pessimistic, optimistic]',
        ...strategy,
        'polling: { bookMs: 200, bookLimit: 10 }',
        'log: { level: silent }',
      ].join('\n'),
    );
    const bt = await runBacktestFromConfig({ configFile: btConfig, data: parts, out: join(dir, 'report'), cache: { dir: false }, parallelLanes: false });
    expect(bt.report.snapshots).toBe(books.length);
    expect(bt.report.trades).toBe(trades.length);
    expect(bt.report.lanes.map((l) => l.assumption)).toEqual(expect.arrayContaining(['pessimistic', 'optimistic']));
    // bot parity: the session's journal beside its own recording
    const parity = await buildParity({ journal: join(dir, 'sim.jsonl'), data: parts, config: configPath, cache: { dir: false } });
    expect(parity.market).toBe('BTC_USDT');
    expect(parity.live.orders).toBeGreaterThan(0);
    expect(parity.lanes.map((l) => l.assumption)).toEqual(['pessimistic', 'optimistic']);
  }, 60_000);

  it('record.path is checked with the daemon’s other paths: a system folder is a config error naming the key', async () => {
    const configPath = join(dir, 'bad.yaml');
    writeFileSync(
      configPath,
      ['venue: { kind: sim }', ...strategy, `journal: { path: ${join(dir, 'bad.jsonl')} }`, 'log: { level: silent }', 'record: { path: /proc/self/rec }'].join(
        '\n',
      ),
    );
    await expect(run(configPath, 0)).rejects.toThrow(
      `${configPath}: record.path: /proc/self/rec is under /proc: a system folder, not a place for the bot's files`,
    );
    writeFileSync(configPath, ['venue: { kind: sim }', ...strategy, 'record: { path: var/x, rotate: { maxBytes: lots } }'].join('\n'));
    await expect(run(configPath, 0)).rejects.toThrow(/record\.rotate\.maxBytes: expected a size such as 50M or 1048576 \(bytes\), got "lots"/);
  });

  it('a restarted daemon on a REST venue appends to the file record.path names, and writes no trade twice', async () => {
    let tradePages = 0;
    const upstream = await startSim({
      config: parseSimConfig({ ...DEFAULT_SIM_CONFIG_INPUT, speed: 10 }),
      onRequest: (e) => {
        if (e.endpoint === 'publicTrades' && e.status === 200) tradePages += 1;
      },
    });
    /** Trade pages fetched when the market first traded (undefined until it has). */
    let pagesAtFirstTrade: number | undefined;
    const offTrades = upstream.exchange.onTrade((t) => {
      if (t.market === 'BTC_USDT') pagesAtFirstTrade ??= tradePages;
    });
    /**
     * A session runs until it has fetched three pages of recent trades after the market's first trade, not a fixed
     * 2.5 s: the first writes trades, and the second's first page repeats some of them (what "no trade twice" is about).
     */
    const session = (configPath: string) => {
      const from = tradePages;
      return runDaemon({
        configPath,
        env: {},
        out: new PassThrough(),
        until: waitUntil(
          'three trade pages fetched after the first trade',
          () => pagesAtFirstTrade !== undefined && tradePages >= Math.max(from, pagesAtFirstTrade) + 3,
          { timeoutMs: 30_000, everyMs: 50 },
        ).then(
          () => 'enough',
          () => 'timed out',
        ),
      });
    };
    try {
      const account = upstream.accounts.find((a) => !a.partner)!;
      // a file path, as docs/parity.md writes it: the recording itself, not a folder
      const rec = join(dir, 'rest-rec', 'session.jsonl.gz');
      const configPath = join(dir, 'rest.yaml');
      writeFileSync(
        configPath,
        [
          `venue: { kind: rest, baseUrl: "${upstream.baseUrl}", apiKey: ${account.apiKey}, apiSecret: ${account.apiSecret} }`,
          ...strategy,
          'polling: { bookMs: 200 }',
          `journal: { path: ${join(dir, 'rest.jsonl')} }`,
          'log: { level: silent }',
          `record: { path: ${rec} }`,
        ].join('\n'),
      );
      await session(configPath);
      await session(configPath);
      const all = await lines([rec]);
      expect(all.filter((l) => l.type === 'market')).toHaveLength(2); // two gzip members, one per session
      const trades = all.filter((l) => l.type === 'trade');
      expect(trades.length).toBeGreaterThan(0);
      // the second session's first page repeats the first's last trades: none is written again
      expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
      const times = all.flatMap((l) => (l.type === 'market' ? [] : [l.t]));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    } finally {
      offTrades();
      await upstream.close();
    }
  }, 60_000);
});
