#!/usr/bin/env -S node --max-semi-space-size=64 --min-semi-space-size=64
// --max-semi-space-size=64 (MB; V8's default is 16): young-generation scavenges are a few ms each and land on whatever
// request is in flight; a larger nursery makes them about four times rarer, which takes them out of the order path's
// p99 (see README, Performance). --min-semi-space-size=64: that nursery from the start (V8 starts it at 1 MB and
// doubles it over dozens of scavenges, each promoting whatever is alive then; a backtest's first day paid ~60 extra
// scavenges and twice the page faults for it, and its lane worker threads size their nurseries from the same flag).
// `npm start`, `npm run bot` and `npm run bench` pass the same flags.
// The `bot` command. It runs the compiled JavaScript of `npm run build` (dist/) when that build is there and no
// source is newer than it; otherwise the TypeScript sources through tsx's loader, so a fresh clone needs no build.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBuildDir } from '../src/loading/fresh-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const dist = freshBuildDir(root);

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
await main(process.argv);
