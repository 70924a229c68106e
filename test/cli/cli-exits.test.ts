import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordBooks } from '../../backtest/record/recorder.js';
import { readTextLines } from '../../backtest/importers/text-lines.js';
import { CaptureFormatError } from '../../backtest/importers/capture-format-error.js';
import { ConfigError } from '../../src/model/errors.js';
import { readRecordingLines, RecordingFormatError } from '../../src/recording/recording-format.js';
import { RestClient } from '../../src/venue/rest-client.js';
import { withSim } from '../helpers/with-sim.js';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 24 item 9: each case used to end in a stack trace, exit 0 or a retry for ever. Now: one clear line and the
 * documented exit code (2 usage or config, 3 a service unreachable after a bounded wait).
 */
const dir = mkdtempSync(join(tmpdir(), 'cli-exits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const missingGz = join(dir, 'missing.jsonl.gz');
const garbageGz = join(dir, 'garbage.jsonl.gz');
writeFileSync(garbageGz, randomBytes(256));

const oneLine = (stderr: string): string[] => stderr.trim().split('\n');

describe('bot sim --replay <missing>', () => {
  it('one line, exit 2 (was an unhandled error event: a stack trace and exit 1)', async () => {
    const r = await runBot(['sim', '--replay', missingGz]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`bot: --replay: ${missingGz} does not exist (no such file) [ERR_CONFIG]`]);
  });

  it('a missing .gz fails the reader like a missing plain file: a typed error, not an unhandled event', async () => {
    const read = async (): Promise<void> => {
      for await (const _ of readRecordingLines(missingGz)) void _;
    };
    await expect(read()).rejects.toBeInstanceOf(RecordingFormatError);
    const lines = async (): Promise<void> => {
      for await (const _ of readTextLines([join(dir, 'gone.csv.gz')])) void _;
    };
    await expect(lines()).rejects.toBeInstanceOf(CaptureFormatError);
  });
});

describe('bot record', () => {
  it('--limit 500 is a usage error when the command line is read (0-100)', async () => {
    const r = await runBot(['record', 'BTC_USDT', '--base-url', 'http://127.0.0.1:9', '--limit', '500', '--out', join(dir, 'r.jsonl.gz')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: option '--limit <n>' argument '500' is invalid\. expected a whole number from 0 to 100, got "500"/);
  });

  it('a request the venue refuses (422) stops the recording instead of repeating it for ever', async () => {
    await withSim({ flow: false }, async (sim) => {
      const api = new RestClient({ baseUrl: sim.baseUrl });
      const errors: unknown[] = [];
      try {
        const out = join(dir, 'refused.jsonl.gz');
        const run = recordBooks({ api, market: 'BTC_USDT', intervalMs: 50, limit: 500, count: 1000, out, onError: (e) => errors.push(e) });
        await expect(run).rejects.toBeInstanceOf(ConfigError);
        await expect(run).rejects.toThrow(/^record: the venue refuses the order book request for BTC_USDT \(HTTP 422: .*\); it would refuse it again/);
        expect(errors).toEqual([]);
        expect(sim.stats.arrivalTimes('orderbook')).toHaveLength(1);
      } finally {
        api.close();
      }
    });
  });
});

describe('output paths of bot record and bot backtest go through the file-path check', () => {
  it('bot record --out a directory, bot backtest --out a file and out: /dev/null in its config: exit 2 naming the option or key', async () => {
    const rec = await runBot(['record', 'BTC_USDT', '--base-url', 'http://127.0.0.1:9', '--out', dir]);
    expect(rec.code).toBe(2);
    expect(oneLine(rec.stderr)).toEqual([
      `bot: --out: ${dir} is a directory: expected a regular file (the bot creates, appends to and renames only files it owns) [ERR_CONFIG]`,
    ]);
    const config = join(import.meta.dirname, '../../config/backtest.yaml');
    const bt = await runBot(['backtest', config, '--out', garbageGz, '--no-progress']);
    expect(bt.code).toBe(2);
    expect(oneLine(bt.stderr)).toEqual([`bot: --out: ${garbageGz} cannot be created: ${garbageGz} is a regular file, not a folder [ERR_CONFIG]`]);
    const devNull = join(dir, 'bt-dev-null.yaml');
    writeFileSync(
      devNull,
      `data: [${join(import.meta.dirname, '../../backtest/sample-data/sim-btc-usdt.jsonl.gz')}]\nbalances: { BTC: 1 }\nstrategies: [{ id: m, use: market-maker, market: BTC_USDT }]\nout: /dev/null\n`,
    );
    const cfg = await runBot(['backtest', devNull, '--no-progress']);
    expect(oneLine(cfg.stderr)).toEqual([`bot: ${devNull}: out: /dev/null is under /dev: a system folder, not a place for the bot's files [ERR_CONFIG]`]);
  });
});

describe('bot cache build', () => {
  it('a missing file is exit 2 naming it (was "skipped", exit 0)', async () => {
    const r = await runBot(['cache', 'build', missingGz, '--cache', join(dir, 'cache')]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`bot: cache build: ${missingGz} does not exist (no such file) [ERR_CONFIG]`]);
  });

  it('a garbage gzip is a typed error, exit 2 (was "skipped", exit 0)', async () => {
    const r = await runBot(['cache', 'build', garbageGz, '--cache', join(dir, 'cache')]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`bot: ${garbageGz}: cannot read (incorrect header check) [ERR_RECORDING_FORMAT]`]);
    expect(r.stdout).toBe('');
  });
});

describe('bot worker --queue <unreachable Redis>', () => {
  it('exits 3 after the bounded wait `bot sweep` uses (it retried for ever)', async () => {
    const r = await runBot(['worker', '--queue', 'redis://127.0.0.1:1', '--concurrency', '1']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^bot: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 within 10 s: .*ECONNREFUSED.* \[ERR_QUEUE_UNAVAILABLE\]$/m);
  }, 30_000);
});
