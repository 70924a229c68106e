/**
 * Ctrl-C as a terminal delivers it under `npx bot ...` or `npm start`: SIGINT to the command, and again a few ms later
 * when npm relays it. Every long-running command takes the two as one request for a clean stop
 * (src/app/stop-signal.ts); a handler taken off after the first (process.once) left the relay to Node's default
 * action, which killed `bot sim` before it said `sim: closed` and `bot record` before its recording was closed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/start-sim.js';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'stop-signals-'));
const children = new Set<ReturnType<typeof spawn>>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `bot`; once `up` holds of its output (or `fire` is called): SIGINT, and again 5 ms later (the terminal's, then
 * npm's relay).
 */
function ctrlC(args: string[], up?: RegExp): { fire: () => void; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> } {
  const child = spawn(process.execPath, ['bin/bot.js', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let sent = false;
  let relay: NodeJS.Timeout | undefined;
  const fire = (): void => {
    if (sent) return;
    sent = true;
    child.kill('SIGINT');
    relay = setTimeout(() => child.kill('SIGINT'), 5);
  };
  const onData = (c: Buffer): void => {
    out += c.toString();
    if (up?.test(out) === true) fire();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolveDone) =>
    // 'close', not 'exit': the output's last lines may still be on their way when the process has exited
    child.on('close', (code, signal) => {
      children.delete(child);
      clearTimeout(relay);
      resolveDone({ code, signal, out });
    }),
  );
  return { fire, done };
}

/**
 * Exit 0, or the relay's SIGINT landing after the command had finished its clean stop and was on its way out (its
 * listeners gone with the process): what the other assertions show ran. Under npm the shell sees 130 either way: npm
 * re-raises the Ctrl-C on itself once its child has exited.
 */
function cleanExit(r: { code: number | null; signal: NodeJS.Signals | null }): boolean {
  return r.code === 0 || (r.code === null && r.signal === 'SIGINT');
}

describe('Ctrl-C relayed by npm is one clean stop', () => {
  it('bot sim closes the exchange, says so', async () => {
    const r = await ctrlC(['sim', '--port', '0'], /Stop with Ctrl-C/).done;
    expect(r.out).toMatch(/^sim: closed$/m);
    expect(cleanExit(r), r.out).toBe(true);
  });

  it('bot record closes its recording (a whole gzip file, every snapshot it counts)', async () => {
    let books = 0;
    let fire = (): void => undefined;
    // stopped once it has recorded a few books (it prints nothing before it stops)
    const sim = await startSim({ port: 0, onRequest: (e) => void (e.path.includes('orderbook') && ++books === 3 && fire()) });
    try {
      const out = join(dir, 'btc.jsonl.gz');
      const run = ctrlC(['record', 'BTC_USDT', '--base-url', sim.baseUrl, '--interval', '100ms', '--no-trades', '--out', out]);
      fire = run.fire;
      const r = await run.done;
      expect(cleanExit(r), r.out).toBe(true);
      const recorded = Number(/recorded (\d+) snapshots/.exec(r.out)?.[1]);
      expect(recorded, r.out).toBeGreaterThanOrEqual(2);
      // gunzip throws on a file cut short; the header line, then the snapshots it counted
      const lines = gunzipSync(readFileSync(out)).toString().trim().split('\n');
      expect(lines.length).toBe(recorded + 1);
    } finally {
      await sim.close();
    }
  });
});
