#!/usr/bin/env node
// `npm run build`: compiles the TypeScript of src/, backtest/ and strategies/ to JavaScript in dist/ (esbuild, one
// file per module, the same tree), so `bin/bot.js` and the backtest's and the sweep's worker threads start without
// tsx compiling anything (see README, Performance). Optional: without a build, or when a source is newer than the
// build, bin/bot.js runs the sources through tsx as before. `BOT_DIST_DIR` (or --out DIR) builds elsewhere (tests).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SOURCE_DIRS } from '../src/loading/fresh-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1] : (process.env.BOT_DIST_DIR ?? join(root, 'dist'));

function walk(dir, found = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, found);
    else found.push(p);
  }
  return found;
}

// the build's time is taken before reading: a source saved during the build counts as newer than it
const builtAt = Date.now();
const started = performance.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const files = SOURCE_DIRS.flatMap((d) => walk(join(root, d)));
const ts = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
// a declaration beside a plain-JavaScript module (fresh-build.d.mts) is not compiled
await build({ entryPoints: ts, outdir: out, outbase: root, format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning' });
// plain-JavaScript modules (worker entries and their helpers) as they are: they find the compiled modules beside them
for (const f of files.filter((f) => f.endsWith('.mjs'))) {
  const target = join(out, relative(root, f));
  mkdirSync(dirname(target), { recursive: true });
  cpSync(f, target);
}
// the files a module reads beside itself (the dashboard's page)
for (const f of files.filter((f) => /\/static\//.test(f))) cpSync(f, join(out, relative(root, f)));
writeFileSync(join(out, 'package.json'), '{ "type": "module", "private": true }\n');
if (!out.startsWith(`${root}/`) && !existsSync(join(out, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
writeFileSync(join(out, 'build.json'), `${JSON.stringify({ root, builtAt, node: process.version, modules: ts.length }, null, 2)}\n`);
process.stdout.write(`built ${ts.length} modules into ${out} in ${Math.round(performance.now() - started)} ms\n`);
