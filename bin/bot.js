#!/usr/bin/env -S node --max-semi-space-size=64 --min-semi-space-size=64
// --max-semi-space-size=64 (MB; V8's default is 16): young-generation scavenges are a few ms each and land on whatever
// request is in flight; a larger nursery makes them about four times rarer, which takes them out of the order path's
// p99 (see README, Performance). --min-semi-space-size=64: that nursery from the start (V8 starts it at 1 MB and
// doubles it over dozens of scavenges, each promoting whatever is alive then; a backtest's first day paid ~60 extra
// scavenges and twice the page faults for it, and its lane worker threads size their nurseries from the same flag).
// `npm start`, `npm run bot` and `npm run bench` pass the same flags.
// The `bot` command. It runs the compiled JavaScript in dist/ when no source is newer than it; when the build is
// missing or stale it makes it first (esbuild, ~0.4 s, src/loading/build-tree.mjs), so a fresh clone or an edited
// source runs compiled code without a manual `npm run build`. BOT_AUTO_BUILD=0, a production install without esbuild
// or a source that does not compile run the TypeScript sources through tsx's loader instead, as without a build.
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBuildDir } from '../src/loading/fresh-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
// the build's folder as a person would type it from here
const shown = (dir) => (relative(process.cwd(), dir).startsWith('..') ? dir : relative(process.cwd(), dir) || '.');
const dist =
  freshBuildDir(root) ??
  (process.env.BOT_AUTO_BUILD === '0'
    ? undefined
    : await (await import('../src/loading/build-tree.mjs')).freshOrRebuiltDir(root, {
        // stderr, one line: stdout may be a command's JSON
        onBuilt: ({ out, modules, ms, missing }) =>
          process.stderr.write(
            `bot: ${missing ? 'no build yet' : 'a source is newer than the build'}: compiled ${modules} modules into ${shown(out)} in ${(ms / 1000).toFixed(1)} s (BOT_AUTO_BUILD=0: run the sources through tsx instead)\n`,
          ),
        onFailed: ({ out, error }) =>
          process.stderr.write(`bot: could not build ${shown(out)} (${String(error.message).split('\n')[0]}): running the TypeScript sources through tsx\n`),
      }));

let main;
const compiled = dist !== undefined;
// for tests and the curious: which code runs
if (process.env.BOT_TRACE_ENTRY) process.stderr.write(`bot: running ${compiled ? `the build in ${dist}` : 'the TypeScript sources (tsx)'}\n`);
if (compiled) {
  ({ main } = await import(pathToFileURL(join(dist, 'src/cli/main.js')).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv, { ownsProcess: true });
