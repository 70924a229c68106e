#!/usr/bin/env -S node --max-semi-space-size=64
// --max-semi-space-size=64 (MB; V8's default is 16): young-generation scavenges are a few ms each and land on whatever
// request is in flight; a larger nursery makes them about four times rarer, which takes them out of the order path's
// p99 (see README, Performance). `npm start`, `npm run bot` and `npm run bench` pass the same flag.
// The `bot` command. It runs the compiled JavaScript of `npm run build` (dist/) when that build is there and no
// source is newer than it; otherwise the TypeScript sources through tsx's loader, so a fresh clone needs no build.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const dist = process.env.BOT_DIST_DIR ?? join(root, 'dist');

/** The newest modification time under the source folders (a few ms for the whole tree). */
function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function freshBuild() {
  try {
    const build = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8'));
    return build.root === root && ['src', 'backtest', 'strategies'].every((d) => newestSource(join(root, d)) <= build.builtAt);
  } catch {
    return false;
  }
}

let main;
const compiled = freshBuild();
// for tests and the curious: which code runs
if (process.env.BOT_TRACE_ENTRY) process.stderr.write(`bot: running ${compiled ? `the build in ${dist}` : 'the TypeScript sources (tsx)'}\n`);
if (compiled) {
  ({ main } = await import(pathToFileURL(join(dist, 'src/cli/main.js')).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv);
