import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 26: every fenced ```sh command of the README's "Quick start" and "A tour" runs as pasted on a fresh clone
 * (after the install command) and exits 0. The commands run in README order, through bash, in a copy of the
 * checkout (they write var/, strategies/, config/): a command that runs until Ctrl-C gets the terminal's Ctrl-C
 * (SIGINT to its process group) once it is up, and must then exit cleanly too.
 */
const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Not run: installing (node_modules is there) and the whole suite (this test is part of it). */
const SKIPPED = [/^npm (ci|install)\b/, /^npm test\b/];

/**
 * Commands that run until Ctrl-C: the output that says they are up, and the output that says they stopped cleanly.
 * npm and npx re-raise the Ctrl-C on themselves once their child has exited, so the shell ends by SIGINT (or 130)
 * even when bot exited 0: what bot printed on its way out tells a clean stop from a killed one.
 */
const UNTIL_CTRL_C: ReadonlyArray<{ command: RegExp; up: RegExp; stopped: RegExp }> = [
  // the demo shows what it does: stopped once a status line has the bot's quotes on both sides (what the README's
  // sample line shows; npm-start-demo.test.ts checks the fills and figures)
  { command: /\bnpm start$/, up: /\| quotes \[B [^\]]* S /, stopped: /^run summary/m },
  // a dry run sends nothing, so it has no quotes to show: stopped once it runs
  { command: /\bnpx bot run\b/, up: /runtime started/, stopped: /^run summary/m },
  { command: /\bnpx bot sim\b/, up: /Stop with Ctrl-C/, stopped: /^sim: closed$/m },
  // ~75 s by design: started, then stopped as its docs say (Ctrl-C kills its daemons and exits 130, silently)
  { command: /\bnpm run chaos\b/, up: /^chaos: \w+ mode, seed/m, stopped: /^chaos: \w+ mode, seed/m },
];

/** The README's ```sh blocks of one `## ` section, one command per line, comments dropped. */
function shellCommands(readme: string, section: string): string[] {
  const start = readme.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${section}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const text = readme.slice(start, end < 0 ? undefined : end);
  const commands: string[] = [];
  for (const [, body] of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of body!.replace(/\\\n/g, ' ').split('\n')) {
      const command = line.replace(/(^|\s)#.*$/, '').trim();
      if (command !== '') commands.push(command);
    }
  }
  return commands;
}

/** What runs of a README line: `npm ci && npm start` is `npm start` (installed already), `npm test` nothing. */
function runnable(line: string): string | undefined {
  const parts = line.split(/\s*&&\s*/).filter((p) => !SKIPPED.some((s) => s.test(p)));
  return parts.length === 0 ? undefined : parts.join(' && ');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly output: string;
}

/** Runs one command line with bash in `cwd`; with `up`, sends SIGINT to its process group once its output matches. */
function run(command: string, cwd: string, up?: RegExp): Promise<Ran> {
  // A user's shell has neither of the suite's build variables (test/setup/build-once.ts): BOT_DIST_DIR names the
  // suite's build of the checkout, not of this copy, and BOT_AUTO_BUILD=0 made every `bot` here run the sources
  // through tsx (~26 s of CPU for these commands). Without them the first `bot` builds the copy's dist/, as on a fresh
  // clone, and the rest run it (~19 s); `bot run` after `bot new-strategy` rebuilds it, a source being newer.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV' && k !== 'BOT_DIST_DIR' && k !== 'BOT_AUTO_BUILD'),
  );
  // the dashboard on a free port: the suite's other daemons may hold 9464. BOT_TEST_SOURCES: the nested `npx vitest
  // run` of the generated test skips compiling the sources for bot children (test/setup/build-once.ts): that test
  // starts none, and the build cost ~0.7 s of CPU in esbuild. Nothing else reads it.
  const child = spawn('bash', ['-c', command], {
    cwd,
    detached: true,
    env: { ...env, BOT_HTTP_LISTEN: '127.0.0.1:0', BOT_TEST_SOURCES: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let interrupted = false;
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    if (up !== undefined && !interrupted && up.test(output)) {
      interrupted = true;
      process.kill(-child.pid!, 'SIGINT');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  // one that hangs (never up, or deaf to Ctrl-C) is killed before the test's timeout, so nothing outlives the test
  const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 50_000);
  return new Promise((r) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      r({ code, signal, output });
    }),
  );
}

const lines = (() => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  return [...shellCommands(readme, 'Quick start'), ...shellCommands(readme, 'A tour')];
})();

describe("README.md's Quick start and tour commands, as pasted on a fresh clone", () => {
  let dir = '';
  beforeAll(() => {
    // a fresh clone: the tracked tree without the outputs of earlier runs; node_modules as `npm ci` left it
    dir = mkdtempSync(join(tmpdir(), 'readme-commands-'));
    const skip = new Set(['.git', 'node_modules', 'var', 'dist', 'coverage']);
    cpSync(repo, dir, { recursive: true, filter: (src) => src === repo || !skip.has(basename(src)) || resolve(src, '..') !== repo });
    symlinkSync(realpathSync(join(repo, 'node_modules')), join(dir, 'node_modules'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the sections and their commands', () => {
    expect(lines.length).toBeGreaterThanOrEqual(8);
    expect(lines).toContain('npm ci && npm start');
  });

  it.for(lines)('%s', { timeout: 60_000 }, async (line, { skip }) => {
    let command = runnable(line);
    if (command === undefined) {
      skip('not run: installing, or the whole suite (this test is part of it)');
      return;
    }
    // a fixed port may be taken on a shared machine (the suite's own servers); the command is otherwise as printed
    command = command.replace(/--port \d+/, `--port ${await freePort()}`);
    const longRunning = UNTIL_CTRL_C.find((c) => c.command.test(command));
    const ran = await run(command, dir, longRunning?.up);
    const said = `${command}\n${ran.output.slice(-3000)}`;
    if (longRunning === undefined) expect([ran.code, ran.signal], said).toEqual([0, null]);
    else {
      expect(ran.code === 0 || ran.code === 130 || ran.signal === 'SIGINT', said).toBe(true);
      expect(ran.output, said).toMatch(longRunning.stopped);
    }
    // a clean exit: no stack trace
    expect(ran.output, said).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
  });
});
