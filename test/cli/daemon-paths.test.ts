import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runDaemon } from '../../src/app/daemon.js';
import { ConfigError } from '../../src/model/errors.js';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 24: the daemon with an embedded sim "kept the previous journal aside" by renaming whatever journal.path
 * named (as root, /dev/null itself), a /proc path spun in a recursive mkdir, a FIFO blocked the start for good, and
 * a directory or a file as parent exited 1 naming no key. Every case is now a config error before anything is
 * touched, naming the config file and the key.
 */
const dir = mkdtempSync(join(tmpdir(), 'daemon-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function config(extra: string): string {
  const file = join(dir, `daemon-${++n}.yaml`);
  const log = extra.includes('log:') ? [] : ['log: { level: silent }'];
  writeFileSync(
    file,
    [
      'venue: { kind: sim }',
      'strategies: [{ id: g, use: grid, market: BTC_USDT, params: { lower: 29000, upper: 31000, levels: 5, amount: 0.001 } }]',
      ...log,
      extra,
    ].join('\n'),
  );
  return file;
}

/** What runDaemon threw (a config that passed would start and stop at once instead). */
async function startError(file: string): Promise<unknown> {
  try {
    await runDaemon({ configPath: file, cwd: dir, env: {}, out: new PassThrough(), until: Promise.resolve('test') });
  } catch (e) {
    return e;
  }
  return undefined;
}

async function expectRefused(extra: string, key: string, why: RegExp): Promise<void> {
  const file = config(extra);
  const error = await startError(file);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${key.replace('.', '\\.')}: `));
  expect((error as Error).message).toMatch(why);
}

describe('daemon file paths are checked before anything is opened, created or renamed', () => {
  it('journal.path: /dev/null is refused and stays the device it was', async () => {
    await expectRefused('journal: { path: /dev/null }', 'journal.path', /under \/dev/);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/null.prev')).toBe(false);
  });

  it('journal.path: a directory is refused and not renamed aside', async () => {
    mkdirSync(join(dir, 'jdir'));
    await expectRefused(`journal: { path: ${join(dir, 'jdir')} }`, 'journal.path', /is a directory/);
    expect(lstatSync(join(dir, 'jdir')).isDirectory()).toBe(true);
    expect(existsSync(join(dir, 'jdir.prev'))).toBe(false);
  });

  it('journal.path: a FIFO is refused without opening it', async () => {
    execFileSync('mkfifo', [join(dir, 'jfifo')]);
    await expectRefused(`journal: { path: ${join(dir, 'jfifo')} }`, 'journal.path', /is a FIFO/);
    expect(lstatSync(join(dir, 'jfifo')).isFIFO()).toBe(true);
  });

  it('journal.path under a file, and under /proc (refused at once, no mkdir walk)', async () => {
    writeFileSync(join(dir, 'plain'), '');
    await expectRefused(`journal: { path: ${join(dir, 'plain', 'j.jsonl')} }`, 'journal.path', /plain is a file/);
    await expectRefused('journal: { path: /proc/1/nope/j.jsonl }', 'journal.path', /under \/proc/);
  });

  it('log.file: a directory or /dev/null is refused naming log.file', async () => {
    mkdirSync(join(dir, 'ldir'));
    await expectRefused(`journal: { path: ${join(dir, 'ok.jsonl')} }\nlog: { level: silent, file: ${join(dir, 'ldir')} }`, 'log.file', /is a directory/);
    await expectRefused(`journal: { path: ${join(dir, 'ok.jsonl')} }\nlog: { level: silent, file: /dev/null }`, 'log.file', /under \/dev/);
  });

  it('bot run: one line naming the file and key, exit 2', async () => {
    mkdirSync(join(dir, 'cli-dir'));
    const file = config(`journal: { path: ${join(dir, 'cli-dir')} }`);
    const r = await runBot(['run', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^bot: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: journal\\.path: .* is a directory`)),
    ]);
  });
});
