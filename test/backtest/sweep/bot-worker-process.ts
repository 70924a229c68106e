import { spawn, type ChildProcess } from 'node:child_process';

/** A real `bot worker` child process (bin/bot.js, TypeScript through tsx), ready once it printed its ready line. */
export interface BotWorkerProcess {
  readonly child: ChildProcess;
  /** Everything it wrote to stderr (one line per trial). */
  readonly log: () => string;
  stop(): Promise<void>;
}

export async function startBotWorker(args: readonly string[]): Promise<BotWorkerProcess> {
  const child = spawn(process.execPath, ['bin/bot.js', 'worker', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bot worker not ready: ${out} ${err}`)), 30_000);
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('"worker":"ready"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bot worker exited (${code}): ${err}`));
    });
  });
  return {
    child,
    log: () => err,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
