import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBot } from './venue-cli-harness.js';

/**
 * Issue 26 item 6: `bot --help` ran to 245 characters a line, 27 commands in one list; `bot --version` was an error;
 * `bot order-history --help | head` ended in an EPIPE stack trace. Now: five groups, every help line of every command
 * at most 100 characters, examples written as they run on a fresh clone (`npx bot ...`), a version, a quiet pipe.
 */
const repo = fileURLToPath(new URL('../..', import.meta.url));

/** The commands listed under the group headings (or `Commands:`) of a help text. */
function listedCommands(help: string): string[] {
  const names: string[] = [];
  let inList = false;
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) inList = !/^(Options|Arguments|Usage|Examples?):$/.test(line);
    else if (line === '') inList = false;
    else if (inList) {
      const name = /^ {2}([a-z][a-z-]*)(?: |$)/.exec(line)?.[1];
      if (name !== undefined && name !== 'help') names.push(name);
    }
  }
  return names;
}

/** Every command path (`run`, `import tardis`, ...) with its help text. */
async function everyHelp(): Promise<Map<string, string>> {
  const helps = new Map<string, string>();
  const visit = async (path: string[]): Promise<void> => {
    const r = await runBot([...path, '--help']);
    expect(r.code, path.join(' ')).toBe(0);
    helps.set(path.join(' ') || '(bot)', r.stdout);
    for (const sub of listedCommands(r.stdout)) await visit([...path, sub]);
  };
  await visit([]);
  return helps;
}

describe('bot --help', () => {
  it('groups the commands: daemon, research, data, venue calls, tools', async () => {
    const r = await runBot(['--help']);
    const headings = r.stdout.split('\n').filter((l) => /^\S.*:$/.test(l));
    expect(headings.map((h) => h.split(/[ :(]/)[0])).toEqual(['Options', 'Daemon', 'Research', 'Data', 'Venue', 'Tools']);
    expect(listedCommands(r.stdout)).toHaveLength(28);
  });

  it('keeps every line of every command help within 100 characters, and writes its examples as `npx bot`', async () => {
    const helps = await everyHelp();
    expect(helps.size).toBeGreaterThan(30);
    const long: string[] = [];
    const bare: string[] = [];
    for (const [path, help] of helps) {
      for (const line of help.split('\n')) {
        if ([...line].length > 100) long.push(`${path}: ${line}`);
        // a `bot <command>` a person would paste, outside the usage line and backquoted prose
        if (/(^|[^\w`/-])bot [a-z]/.test(line.replace(/npx bot /g, '')) && !line.startsWith('Usage: bot')) bare.push(`${path}: ${line}`);
      }
    }
    expect(long).toEqual([]);
    expect(bare).toEqual([]);
  }, 60_000);
});

describe('bot --version', () => {
  it("prints package.json's version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await runBot([flag]);
      expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});

describe('typos on the command line', () => {
  it('an unknown command exits 2 with "did you mean"', async () => {
    const r = await runBot(['rn', 'config/default.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown command 'rn'");
    expect(r.stderr).toContain('(Did you mean run?)');
  });

  it('an unknown option exits 2 with "did you mean"', async () => {
    const r = await runBot(['run', 'config/default.yaml', '--dry-rn']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--dry-rn'");
    expect(r.stderr).toContain('(Did you mean --dry-run?)');
  });
});

describe('a closed stdout (`bot ... | head`)', () => {
  it('ends quietly with exit 0: no EPIPE stack trace', async () => {
    const child = spawn(process.execPath, ['bin/bot.js', 'order-history', '--help'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    // the reader is gone before bot writes anything
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 30_000);
});
