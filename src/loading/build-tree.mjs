// Compiles the TypeScript of src/, backtest/ and strategies/ into a build directory (esbuild, one file per module, the
// same tree), for `npm run build` (bin/build.js) and for bin/bot.js when the build is missing or older than a source.
// Plain JavaScript, so bin/bot.js can call it before anything TypeScript is loaded.
//
// Safe when several processes start at once on a stale build: one builds (the others wait on a lock directory, then
// find the build fresh), into a temporary sibling that is renamed into place only when whole, build.json last; the out
// directory is never a half build that freshBuildDir would take as fresh.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { distDirOf, freshBuildDir, isFreshBuild, SOURCE_DIRS, sourceFiles } from './fresh-build.mjs';

/** A lock or temporary directory older than this was left by a process that died while building. */
const ABANDONED_MS = 120_000;
const WAIT_STEP_MS = 25;

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `.dist-lock`, `.dist-tmp-123`: beside the out directory (the same file system, so a rename moves it whole). */
function sibling(out, what) {
  return join(dirname(out), `.${basename(out)}-${what}`);
}

/** Compiles into `into` (which must not exist), build.json last. */
async function compile(build, root, into, final, logLevel) {
  // the build's time is taken before reading: a source saved during the build counts as newer than it
  const builtAt = Date.now();
  mkdirSync(into, { recursive: true });
  const files = SOURCE_DIRS.flatMap((d) => sourceFiles(join(root, d)));
  const ts = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  // a declaration beside a plain-JavaScript module (fresh-build.d.mts) is not compiled
  await build({ entryPoints: ts, outdir: into, outbase: root, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel });
  // plain-JavaScript modules (worker entries and their helpers) as they are: they find the compiled modules beside them
  for (const f of files.filter((f) => f.endsWith('.mjs'))) {
    const target = join(into, relative(root, f));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(f, target);
  }
  // the files a module reads beside itself (the dashboard's page)
  for (const f of files.filter((f) => /\/static\//.test(f))) cpSync(f, join(into, relative(root, f)));
  writeFileSync(join(into, 'package.json'), '{ "type": "module", "private": true }\n');
  // a build outside the repository finds the packages through a link (inside, Node looks up to the root's node_modules)
  if (!final.startsWith(`${root}/`)) symlinkSync(join(root, 'node_modules'), join(into, 'node_modules'));
  writeFileSync(join(into, 'build.json'), `${JSON.stringify({ root, builtAt, node: process.version, modules: ts.length }, null, 2)}\n`);
  return ts.length;
}

/** Puts the whole build `from` at `out`, moving any previous build away first (rename cannot replace a directory). */
function swapIn(from, out) {
  const old = sibling(out, `old-${process.pid}`);
  if (existsSync(out)) renameSync(out, old);
  renameSync(from, out);
  rmSync(old, { recursive: true, force: true });
}

/** Removes what a process that died mid-build left beside `out` (its temporary build, a build it was moving away). */
function removeAbandoned(out) {
  const prefix = `.${basename(out)}-`;
  let names;
  try {
    names = readdirSync(dirname(out));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/-(tmp|old)-\d+$/.test(name)) continue;
    const p = join(dirname(out), name);
    try {
      if (Date.now() - statSync(p).mtimeMs > ABANDONED_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** Takes the build lock of `out`, waiting while another process holds it; true when taken, false when given up. */
function lock(out, waitMs) {
  const path = sibling(out, 'lock');
  mkdirSync(dirname(out), { recursive: true });
  for (const until = Date.now() + waitMs; ; ) {
    try {
      mkdirSync(path);
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(path).mtimeMs > ABANDONED_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // released meanwhile
    }
    if (Date.now() > until) return false;
    sleep(WAIT_STEP_MS);
  }
}

function unlock(out) {
  rmSync(sibling(out, 'lock'), { recursive: true, force: true });
}

/**
 * Builds the sources of `root` into `out`, replacing what is there; with `ifStale`, only when `out` is not a fresh
 * build once the lock is taken (another process may have just built it). Returns the number of modules compiled (0
 * when it did not build) and the milliseconds it took. `logLevel` is esbuild's (silent: its errors are in the thrown
 * error's message). Throws when esbuild is missing (a production install: code
 * NO_ESBUILD) or a source does not compile.
 */
export async function buildTree(root, out, { ifStale = false, logLevel = 'silent' } = {}) {
  const started = performance.now();
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (cause) {
    throw Object.assign(new Error('esbuild (a dev dependency) is not installed', { cause }), { code: 'NO_ESBUILD' });
  }
  if (!lock(out, ABANDONED_MS)) throw new Error(`another build of ${out} holds ${sibling(out, 'lock')}`);
  try {
    if (ifStale && isFreshBuild(root, out)) return { modules: 0, ms: performance.now() - started };
    removeAbandoned(out);
    const tmp = sibling(out, `tmp-${process.pid}`);
    rmSync(tmp, { recursive: true, force: true });
    try {
      const modules = await compile(esbuild.build, root, tmp, out, logLevel);
      swapIn(tmp, out);
      return { modules, ms: performance.now() - started };
    } finally {
      // esbuild's service process would otherwise idle beside bot for the rest of its run
      await esbuild.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  } finally {
    unlock(out);
  }
}

/**
 * The fresh build of `root`, for a caller that found none (freshBuildDir undefined): built now, when it is still missing
 * or older than a source under the lock (the process that takes the lock builds, the others wait for it and take its
 * build). `onBuilt` hears of a build this
 * process made, `onFailed` of one it could not make (not of a missing esbuild: a production install runs the sources
 * as it always did). Returns undefined when there is no build to run: the caller then runs the sources.
 */
export async function freshOrRebuiltDir(root, { onBuilt, onFailed } = {}) {
  const out = distDirOf(root);
  const missing = !existsSync(join(out, 'build.json'));
  try {
    const { modules, ms } = await buildTree(root, out, { ifStale: true });
    if (modules > 0) onBuilt?.({ out, modules, ms, missing });
  } catch (error) {
    if (error.code !== 'NO_ESBUILD') onFailed?.({ out, error });
    return undefined;
  }
  return freshBuildDir(root);
}
