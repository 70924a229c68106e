import { sourceRoot } from '../loading/source-root.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';

/** The repository root, where `bin/bot.js` lives. */
export const REPO_ROOT = sourceRoot(import.meta.url);

/**
 * One `bot run <config>` child process, as a user starts it (node + bin/bot.js), its stdout and stderr
 * appended to one file of the run directory (the secret scan reads it). The harness kills it with SIGKILL
 * or stops it with SIGTERM; `exited` resolves with its exit code, or the signal's name.
 */
export class DaemonProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | string>;
  readonly startedAt = Date.now();
  /** Set when the harness sent the SIGKILL or SIGTERM (any other exit is the daemon's own doing). */
  endedByHarness = false;
  #exit: number | string | undefined;

  constructor(configPath: string, outputPath: string, env: NodeJS.ProcessEnv, label: string) {
    const fd = openSync(outputPath, 'a');
    writeSync(fd, `--- chaos: ${label} started at ${new Date().toISOString()}\n`);
    this.child = spawn(process.execPath, ['--max-semi-space-size=64', '--min-semi-space-size=64', 'bin/bot.js', 'run', configPath], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd); // the child holds its own copy
    this.exited = new Promise((r) =>
      this.child.once('exit', (code, signal) => {
        this.#exit = code ?? signal ?? 'unknown';
        r(this.#exit);
      }),
    );
  }

  get running(): boolean {
    return this.#exit === undefined;
  }

  get exitStatus(): number | string | undefined {
    return this.#exit;
  }

  /** SIGKILL: no chance to clean up, the journal is left as the last write(2) left it. */
  async kill(): Promise<void> {
    this.endedByHarness = true;
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: a clean stop (cancels open orders, flushes the journal, prints the summary). */
  async stop(timeoutMs: number): Promise<number | string> {
    this.endedByHarness = true;
    if (this.running) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
