/**
 * Ctrl-C as a terminal delivers it under `npx bot ...` or `npm start`: SIGINT to the command, and again a few ms later
 * when npm relays it. Every long-running command takes the two as one request for a clean stop
 * (src/app/stop-signal.ts); a handler taken off after the first (process.once) left the relay to Node's default
 * action, which killed `bot sim` before it said `sim: closed` and `bot record` before its recording was closed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { startSim } from '../../src/sim/start-sim.js';
import { botChildren } from '../helpers/bot-child.js';

const dir = mkdtempSync(join(tmpdir(), 'stop-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bot = botChildren();

/** Runs `bot`; Ctrl-C (SIGINT, then npm's relay 5 ms later) once `up` holds of its output, or when `stop` is called. */
const ctrlC = (args: string[], up?: RegExp) => bot(args, { stopWith: 'ctrl-c', ...(up === undefined ? {} : { stopWhen: (out: string) => up.test(out) }) });

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
      fire = run.stop;
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
