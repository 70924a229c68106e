import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTree } from '../../src/loading/build-tree.mjs';
import { isFreshBuild } from '../../src/loading/fresh-build.mjs';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'auto-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOTICE =
  /^bot: (no build yet|a source is newer than the build): compiled \d+ modules into .* in \d+\.\d s \(BOT_AUTO_BUILD=0: run the sources through tsx instead\)$/m;

/** `bot --version` with the build in `dist`, as a user starts it (the suite's setup turns the rebuild off). */
function version(dist: string, autoBuild = '1'): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['bin/bot.js', '--version'], {
    cwd: repo,
    env: { ...process.env, BOT_DIST_DIR: dist, BOT_TRACE_ENTRY: '1', BOT_AUTO_BUILD: autoBuild },
    encoding: 'utf8',
  });
}

/**
 * A source saved well before the build that follows. A file's time has sub-millisecond digits and the build's time
 * (`builtAt`, Date.now()) none: a source written in the build's very millisecond reads as newer than it (stale, rebuilt
 * next start: the safe side), which is not what these tests are about.
 */
function writeSource(path: string, text: string): void {
  writeFileSync(path, text);
  const past = new Date(Date.now() - 10_000);
  utimesSync(path, past, past);
}

/** What a build process left beside `dist`: its lock, its temporary build, a replaced build. */
function leftovers(dist: string): string[] {
  const name = dist.split('/').pop()!;
  return readdirSync(join(dist, '..')).filter((f) => f.startsWith(`.${name}-`));
}

describe('bin/bot.js builds a missing or stale build before it runs (src/loading/build-tree.mjs)', () => {
  it('a missing build is made, with one line on stderr, run, and taken as it is by the next start', () => {
    const dist = join(dir, 'missing');
    const first = version(dist);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(first.stderr).toMatch(NOTICE);
    expect(first.stderr).toContain('no build yet');
    expect(first.stderr).toContain(`bot: running the build in ${dist}\n`);
    expect(isFreshBuild(repo, dist)).toBe(true);
    const second = version(dist);
    expect(second.stderr).toBe(`bot: running the build in ${dist}\n`);
    expect(leftovers(dist)).toEqual([]);
  }, 60_000);

  it('a build older than a source is replaced; BOT_AUTO_BUILD=0 runs the sources instead and leaves it', () => {
    const dist = join(dir, 'stale');
    execFileSync(process.execPath, ['bin/build.js', '--out', dist], { cwd: repo });
    const build = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8')) as { builtAt: number };
    writeFileSync(join(dist, 'build.json'), JSON.stringify({ ...build, builtAt: 0 }));
    const off = version(dist, '0');
    expect(off.stderr).toBe('bot: running the TypeScript sources (tsx)\n');
    expect(isFreshBuild(repo, dist)).toBe(false);
    const on = version(dist);
    expect(on.status, on.stderr).toBe(0);
    expect(on.stderr).toContain('a source is newer than the build');
    expect(on.stderr).toContain(`bot: running the build in ${dist}\n`);
    expect(isFreshBuild(repo, dist)).toBe(true);
  }, 60_000);

  it('processes started at once on a missing build: one builds, the others wait and run its build', async () => {
    const dist = join(dir, 'race');
    const runs = await Promise.all(
      [1, 2, 3].map(
        () =>
          new Promise<{ code: number | null; stderr: string }>((done) => {
            const child = spawn(process.execPath, ['bin/bot.js', '--version'], {
              cwd: repo,
              env: { ...process.env, BOT_DIST_DIR: dist, BOT_TRACE_ENTRY: '1', BOT_AUTO_BUILD: '1' },
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
            child.on('close', (code) => done({ code, stderr }));
          }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs.filter((r) => NOTICE.test(r.stderr))).toHaveLength(1);
    for (const r of runs) expect(r.stderr).toContain(`bot: running the build in ${dist}\n`);
    expect(isFreshBuild(repo, dist)).toBe(true);
    expect(leftovers(dist)).toEqual([]);
  }, 60_000);

  it('a source that does not compile leaves the previous build where it was, and no half build', async () => {
    // a tree of its own: the repository's sources must stay as they are
    const root = join(dir, 'tree');
    for (const d of ['src', 'backtest', 'strategies']) mkdirSync(join(root, d), { recursive: true });
    writeSource(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
    const out = join(dir, 'tree-dist');
    await buildTree(root, out);
    expect(isFreshBuild(root, out)).toBe(true);
    const before = readFileSync(join(out, 'build.json'), 'utf8');
    writeFileSync(join(root, 'src', 'b.ts'), 'export const b = ;\n');
    await expect(buildTree(root, out)).rejects.toThrow(/b\.ts/);
    expect(readFileSync(join(out, 'build.json'), 'utf8')).toBe(before);
    expect(existsSync(join(out, 'src', 'b.js'))).toBe(false);
    expect(leftovers(out)).toEqual([]);
  }, 60_000);

  it("an editor's hidden files (a swap file, Emacs's dangling lock link) neither make the build stale nor break it", async () => {
    const root = join(dir, 'editor');
    for (const d of ['src', 'backtest', 'strategies']) mkdirSync(join(root, d), { recursive: true });
    writeSource(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
    const out = join(dir, 'editor-dist');
    await buildTree(root, out);
    writeFileSync(join(root, 'src', '.a.ts.swp'), 'vim');
    symlinkSync('user@host.123:456', join(root, 'src', '.#a.ts'));
    mkdirSync(join(root, 'strategies', '.tmp-gen-1'));
    writeFileSync(join(root, 'strategies', '.tmp-gen-1', 'index.ts'), 'export default 1;\n');
    expect(isFreshBuild(root, out)).toBe(true);
    await buildTree(root, out);
    expect(readdirSync(join(out, 'src'))).toEqual(['a.js', 'a.js.map']);
  }, 60_000);
});
