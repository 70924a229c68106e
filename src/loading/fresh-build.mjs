// Whether a compiled build (`npm run build`, bin/build.js) of this tree is fresh: no source saved after it. Plain
// JavaScript, so bin/bot.js can ask before anything TypeScript is loaded; src/loading/compiled-build.ts asks it too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The source folders a build compiles. */
export const SOURCE_DIRS = ['src', 'backtest', 'strategies'];

/**
 * Whether a file or folder name is left out of the build and of its freshness: hidden ones, which are no module but
 * an editor's swap or lock file (vim's `.x.ts.swp` on every save; Emacs's `.#x.ts`, a dangling link that made the
 * freshness check throw and the build fail) or a scratch folder (the scaffold's test writes `strategies/.tmp-gen-*`).
 */
export function notASource(name) {
  return name.startsWith('.');
}

/** Every source file under `dir` (its hidden names left out: see notASource), appended to `found`. */
export function sourceFiles(dir, found = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (notASource(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, found);
    else found.push(p);
  }
  return found;
}

/** The newest modification time under `dir` (a few ms for the whole tree). */
function newestSource(dir) {
  let newest = 0;
  for (const p of sourceFiles(dir)) {
    const t = statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

/** Where `root`'s build goes and is looked for: BOT_DIST_DIR (resolved from the working directory), default <root>/dist. */
export function distDirOf(root) {
  return resolve(process.env.BOT_DIST_DIR ?? join(root, 'dist'));
}

/** The build's directory (distDirOf) when it was made from `root` after every source's last change, else undefined. */
export function freshBuildDir(root) {
  const dist = distDirOf(root);
  return isFreshBuild(root, dist) ? dist : undefined;
}

/** Whether `dist` holds a build made from `root` after every source's last change. */
export function isFreshBuild(root, dist) {
  try {
    const build = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8'));
    return build.root === root && SOURCE_DIRS.every((d) => newestSource(join(root, d)) <= build.builtAt);
  } catch {
    return false;
  }
}
