import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, registerCommands } from '../../src/cli/commands.js';
import { layoutHelp } from '../../src/cli/help-layout.js';

/**
 * Command modules import their implementation inside the action (src/cli/commands.ts), so `bot --help` or one
 * command does not load every other command's packages. This runs bin/bot.js from the sources (tsx) with a
 * resolve hook that writes every module URL it resolves to a file, and looks at the packages among them.
 */
const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'lazy-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// the hook runs on the loader's thread; it gets the file to append to as its data
const HOOK = `import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(out, r.url + '\\n');
  return r;
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)}, import.meta.url, { data: { out: process.env.LOADS_OUT } });`;

/** `bot <args>` run from the sources: its exit code, its stderr and the packages (node_modules names) it loaded. */
function botLoads(args: readonly string[]): { status: number | null; stderr: string; packages: Set<string>; urls: string[] } {
  const out = join(dir, `loads-${args.join('-').replace(/\W+/g, '_')}.txt`);
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, 'bin/bot.js', ...args], {
    cwd: repo,
    // no build there, nor one made: bin/bot.js runs the TypeScript sources
    env: { ...process.env, BOT_DIST_DIR: join(dir, 'no-build'), BOT_AUTO_BUILD: '0', LOADS_OUT: out },
    encoding: 'utf8',
  });
  expect(r.error).toBeUndefined();
  const urls = readFileSync(out, 'utf8').split('\n');
  const packages = new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []));
  return { status: r.status, stderr: r.stderr, packages, urls };
}

// the daemon's, the sweep queue's and the metrics' packages, which few commands need
const HEAVY = ['got', 'bullmq', 'ioredis', 'prom-client', 'rxjs'];

describe('commands load their implementation only when they run', () => {
  it('bot --help registers every command without loading the heavy packages', () => {
    const { status, packages, urls } = botLoads(['--help']);
    expect(status).toBe(0);
    expect(packages).toContain('commander'); // the hook saw the imports
    expect(HEAVY.filter((p) => packages.has(p))).toEqual([]);
    // nor the strategy registry or any strategy (the daemon and the backtest name the registry when they run)
    expect(urls.filter((u) => u.startsWith(`file://${repo}/strategies/`))).toEqual([]);
  }, 30_000);

  it('bot backtest loads the backtest (rxjs) but not the HTTP client, the queue or the metrics', () => {
    // a missing config file: the action runs and loads its modules, then ends on the config error
    const { status, stderr, packages, urls } = botLoads(['backtest', join(dir, 'missing.yaml')]);
    expect(stderr).toContain('cannot read config file');
    expect(status).toBe(2);
    expect(packages).toContain('rxjs');
    expect(['got', 'bullmq', 'ioredis', 'prom-client'].filter((p) => packages.has(p))).toEqual([]);
    // nor the other commands' modules (main.ts registers the named command only), nor the progress bar (no terminal)
    const cli = new Set(urls.flatMap((u) => /\/src\/cli\/([\w-]+)\.ts$/.exec(u)?.[1] ?? []));
    expect([...cli].sort()).toEqual(['backtest', 'closed-output', 'commands', 'exit-codes', 'help-layout', 'main', 'own-process']);
    expect(packages.has('cli-progress')).toBe(false);
    // nor the lane threads' modules, which run-from-config imports only for a lane on a worker thread
    expect(urls.filter((u) => /\/backtest\/replay\/(run-parallel|lane-wire)\.ts$/.test(u))).toEqual([]);
  }, 30_000);

  it('each command table entry names the command its module registers (main.ts registers the named one alone)', async () => {
    for (const entry of COMMAND_GROUPS.flatMap((g) => g.commands)) {
      const program = new Command('bot');
      (await entry.load()).register(program);
      expect(program.commands.map((c) => c.name())).toEqual([entry.name]);
    }
  });

  it('a command registered alone has the help it has among all the others (what `bot <command> --help` prints)', async () => {
    const all = layoutHelp(new Command('bot'));
    await registerCommands(all, ['node', 'bot', '--help']);
    expect(all.commands.map((c) => c.name())).toEqual(COMMAND_GROUPS.flatMap((g) => g.commands.map((c) => c.name)));
    for (const entry of COMMAND_GROUPS.flatMap((g) => g.commands)) {
      const alone = layoutHelp(new Command('bot'));
      await registerCommands(alone, ['node', 'bot', entry.name, '--help']);
      expect(alone.commands.map((c) => c.name())).toEqual([entry.name]);
      const help = (program: Command): string => program.commands.find((c) => c.name() === entry.name)!.helpInformation();
      expect(help(alone)).toBe(help(all));
    }
  });
});
