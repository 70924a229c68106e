import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runsCompiled, sourceRoot } from './source-root.js';
import { freshBuildDir } from './fresh-build.mjs';

let fresh: { dir: string | undefined } | undefined;

/** The directory of a build of this tree that no source is newer than, or undefined (checked once per process). */
export function freshBuildDirOnce(root: string): string | undefined {
  fresh ??= { dir: freshBuildDir(root) };
  return fresh.dir;
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
  const dist = freshBuildDirOnce(root);
  return dist === undefined ? own : pathToFileURL(join(dist, relative(root, fileURLToPath(own))));
}
