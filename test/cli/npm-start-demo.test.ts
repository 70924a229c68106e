import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_CONFIG } from '../../src/sim/sim-config.js';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'npm-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The README's promise: fills within seconds. The run stops once it has shown what the test checks, at most after this. */
const RUN_MS = 60_000;
/** Enough to check: a fill, and this many status lines (one every 3 s) with the bot's quotes on both sides. */
const STATUS_LINES = 4;

/** `npm start`'s own command line (package.json), its paths made absolute so it runs from a temporary directory. */
function startCommand(): string[] {
  const script = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /^exec node ((?:--\S+ )*)bin\/bot\.js run config\/default\.yaml$/.exec(script);
  if (m === null) throw new Error(`npm start is no longer 'node [flags] bin/bot.js run config/default.yaml': ${script}`);
  return [...m[1]!.trim().split(' ').filter(Boolean), join(repo, 'bin/bot.js'), 'run', join(repo, 'config/default.yaml')];
}

/** The figures both the status line and the summary print, by name. */
function figures(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/\b(fills|volume|realised|fees|unrealised|net|inventory) (-?[\d.]+)/g)) out[name!] = value!;
  return out;
}

describe('npm start (the demo)', () => {
  it('within 60 s: fills come, the quotes are wider than a round trip of maker fees, the summary says what the last status line says, no order-placement lines', async () => {
    // from a temporary directory: the relative journal (var/) lands there; a free port for the dashboard
    const child = spawn(process.execPath, startCommand(), {
      cwd: dir,
      env: { ...process.env, BOT_HTTP_LISTEN: '127.0.0.1:0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    let startedAt = 0;
    let ranMs = 0;
    const stop = () => {
      if (ranMs > 0) return;
      ranMs = performance.now() - startedAt;
      clearTimeout(timer);
      child.kill('SIGINT');
    };
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (timer === undefined && stdout.includes('runtime started')) {
        startedAt = performance.now();
        timer = setTimeout(stop, RUN_MS);
      }
      // Ctrl-C as soon as there is a fill and a few two-sided status lines: the README promises fills within seconds
      if (timer !== undefined && /"msg":"fill /.test(stdout) && (stdout.match(/\| quotes \[B [^\]]* S /g) ?? []).length >= STATUS_LINES) stop();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    clearTimeout(timer);
    expect(code, stderr.slice(-2000)).toBe(0);

    const [log, summary] = stdout.split(/^run summary/m);
    expect(summary, 'a run summary').toBeDefined();
    const lines = log!
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    const status = lines.filter((l) => /\| mm-btc: fills \d+/.test(l.msg)).map((l) => l.msg);
    // a status line every 3 s while it ran
    expect(status.length).toBeGreaterThanOrEqual(Math.max(STATUS_LINES, Math.floor(ranMs / 3000) - 2));

    // at least one fill within the minute (the run stopped early only with one), and fills are info lines while placements are not
    const said = figures(/mm-btc on BTC_USDT: (.*)/.exec(summary!)![1]!);
    expect(Number(said['fills'])).toBeGreaterThanOrEqual(1);
    expect(lines.some((l) => l.level === 30 && l.msg.startsWith('fill '))).toBe(true);
    expect(lines.filter((l) => l.msg.startsWith('placed '))).toEqual([]);

    // every two-sided quote set is wider than what a bought-and-sold round trip pays in maker fees
    const makerFee = DEFAULT_SIM_CONFIG.markets
      .find((m) => m.name === 'BTC_USDT')!
      .makerFee.div(100)
      .toNumber();
    let twoSided = 0;
    for (const line of status) {
      const mid = Number(/mid ([\d.]+)/.exec(line)![1]);
      const quotes = [...line.matchAll(/\b([BS]) [\d.]+@([\d.]+)/g)].map(([, side, price]) => ({ side, price: Number(price) }));
      const bids = quotes.filter((q) => q.side === 'B').map((q) => q.price);
      const asks = quotes.filter((q) => q.side === 'S').map((q) => q.price);
      if (bids.length === 0 || asks.length === 0) continue;
      twoSided += 1;
      expect((Math.min(...asks) - Math.max(...bids)) / mid, line).toBeGreaterThan(2 * makerFee);
    }
    expect(twoSided).toBeGreaterThan(0);

    // the same names and the same values: the last status line (printed at the stop) and the summary
    const last = figures(status.at(-1)!.split('| mm-btc: ')[1]!);
    expect(Object.keys(last).sort()).toEqual(['fees', 'fills', 'inventory', 'net', 'realised', 'unrealised', 'volume']);
    expect(said).toEqual(last);
    // realised is before fees: net = realised − fees + unrealised
    expect(Number(said['net'])).toBeCloseTo(Number(said['realised']) - Number(said['fees']) + Number(said['unrealised']), 6);
  }, 120_000);
});
