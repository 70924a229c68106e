/**
 * `node bin/bot.js ...` as a child process, stopped once its output says it is up (or when the test says so): with
 * SIGTERM, or with Ctrl-C as a terminal under `npm start` / `npx` delivers it, SIGINT and again 5 ms later (npm's relay).
 * Children still running when their test failed or timed out are killed with the file (afterAll).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface BotRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout and stderr, interleaved as they arrived. */
  readonly out: string;
}

export interface BotChildOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Stop it once its output satisfies this. */
  readonly stopWhen?: (out: string) => boolean;
  /** How: SIGTERM (default), or 'ctrl-c'. */
  readonly stopWith?: 'SIGTERM' | 'ctrl-c';
}

export interface BotChild {
  /** Stops it now (once). */
  readonly stop: () => void;
  /** Its end, after its output has all arrived ('close', not 'exit'). */
  readonly done: Promise<BotRun>;
}

/** Call at the top level of a test file: registers the clean-up with `afterAll`. */
export function botChildren(): (args: readonly string[], options?: BotChildOptions) => BotChild {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });
  return (args, options = {}) => {
    const child = spawn(process.execPath, ['bin/bot.js', ...args], { cwd: repo, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let stopping = false;
    let relay: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      if (options.stopWith !== 'ctrl-c') return void child.kill('SIGTERM');
      child.kill('SIGINT');
      relay = setTimeout(() => child.kill('SIGINT'), 5);
    };
    const onData = (c: Buffer): void => {
      out += c.toString();
      if (options.stopWhen?.(out) === true) stop();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const done = new Promise<BotRun>((resolveDone) =>
      child.on('close', (code, signal) => {
        children.delete(child);
        clearTimeout(relay);
        resolveDone({ code, signal, out });
      }),
    );
    return { stop, done };
  };
}
