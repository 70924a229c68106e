import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runsCompiled, sourceRoot } from './source-root.js';

/** The source folders `npm run build` compiles (bin/build.js; bin/bot.js checks the same, in plain JavaScript). */
const SOURCE_DIRS = ['src', 'backtest', 'strategies'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

let fresh: string | null | undefined;

/** The directory of a build of this tree that no source is newer than, or undefined (checked once per process). */
export function freshBuildDir(root: string): string | undefined {
  if (fresh === undefined) {
    const dist = process.env.BOT_DIST_DIR ?? join(root, 'dist');
    try {
      const build = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8')) as { root: string; builtAt: number };
      fresh = build.root === root && SOURCE_DIRS.every((d) => newestSource(join(root, d)) <= build.builtAt) ? dist : null;
    } catch {
      fresh = null;
    }
  }
  return fresh ?? undefined;
}

/**
 * The file a worker thread should start (`relativePath` beside `moduleUrl`): from the sources, its compiled twin
 * when a fresh build exists (the worker then loads JavaScript, without tsx compiling its module graph: ~0.35 s less
 * per worker); otherwise the file itself. Workers answer in plain data, so a compiled worker serves a source caller.
 */
export function workerEntry(moduleUrl: string, relativePath: string): URL {
  const own = new URL(relativePath, moduleUrl);
  if (runsCompiled(moduleUrl)) return own;
  const root = sourceRoot(moduleUrl);
  const dist = freshBuildDir(root);
  return dist === undefined ? own : pathToFileURL(join(dist, relative(root, fileURLToPath(own))));
}
