#!/usr/bin/env node
// `npm run build`: compiles the TypeScript of src/, backtest/ and strategies/ to JavaScript in dist/ (esbuild, one
// file per module, the same tree), so `bin/bot.js` and the backtest's and the sweep's worker threads start without
// tsx compiling anything (see README, Performance). bin/bot.js does this itself when the build is missing or a source
// is newer than it (unless BOT_AUTO_BUILD=0); this script builds on demand. `BOT_DIST_DIR` (or --out DIR) builds
// elsewhere (tests). The build goes to a temporary directory renamed into place whole (src/loading/build-tree.mjs).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTree } from '../src/loading/build-tree.mjs';
import { distDirOf } from '../src/loading/fresh-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : distDirOf(root);
try {
  const { modules, ms } = await buildTree(root, out, { logLevel: 'warning' });
  process.stdout.write(`built ${modules} modules into ${out} in ${Math.round(ms)} ms\n`);
} catch (error) {
  // esbuild has printed each error with its file and line
  process.stderr.write(`build: ${error.message.split('\n')[0]}\n`);
  process.exitCode = 1;
}
