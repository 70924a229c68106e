/**
 * Daemons as child processes (`node bin/bot.js run <config>`) for the tests that SIGKILL and restart them: each
 * test file gets a temporary directory and its children, killed and removed in `afterAll`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { parseJournalText } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';

export interface DaemonChild {
  readonly child: ChildProcess;
  /** stdout and stderr so far, interleaved as they arrived. */
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

export interface DaemonChildren {
  /** The file's temporary directory (configs, journals). */
  readonly dir: string;
  spawnDaemon: (config: string, env: NodeJS.ProcessEnv) => DaemonChild;
}

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Call at the top level of a test file: registers the clean-up with `afterAll`. */
export function daemonChildren(prefix: string): DaemonChildren {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    spawnDaemon(config, env) {
      const child = spawn(process.execPath, ['bin/bot.js', 'run', config], { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      return { child, output: () => text, exited };
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The journal's records so far (none when the file is not there yet). */
export const journalAt = (path: string): JournalRecord[] => (existsSync(path) ? parseJournalText(readFileSync(path, 'utf8')).records : []);

/** Polls `cond` every `everyMs` until it holds; fails after `timeoutMs` with the daemon's last output. */
export async function until(what: string, cond: () => boolean, timeoutMs: number, output: () => string, everyMs = 100): Promise<void> {
  for (const start = Date.now(); !cond(); await sleep(everyMs)) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; daemon output:\n${output().slice(-2000)}`);
  }
}

/**
 * A `bot run` config (YAML) for a daemon on a rest venue at `baseUrl` (a sim the test started), its key and secret
 * taken from the environment (`KEY`, `SECRET`), cancelling its orders at the stop. `strategies` are the entries under
 * `strategies:` and `extra` further top-level lines, both as YAML lines.
 */
export function restDaemonYaml(o: {
  readonly baseUrl: string;
  readonly journal: string;
  readonly strategies: readonly string[];
  readonly polling: string;
  readonly log: string;
  readonly extra?: readonly string[];
}): string {
  return [
    'venue:',
    '  kind: rest',
    `  baseUrl: ${o.baseUrl}`,
    '  apiKey: ${KEY}',
    '  apiSecret: ${SECRET}',
    'strategies:',
    ...o.strategies,
    `polling: ${o.polling}`,
    `journal: { path: ${o.journal} }`,
    `log: ${o.log}`,
    'shutdown: { cancelOpenOrders: true }',
    ...(o.extra ?? []),
  ].join('\n');
}
