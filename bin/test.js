#!/usr/bin/env node
// `npm test`: the static checks (format, dependency rules, type check and lint) and the whole vitest suite, AT THE SAME
// TIME. The suite spends much of its wall time waiting on children, loopback servers and the wall clock (the demo's
// minute, the chaos harness's daemons), which leaves a core idle for the static checks; in sequence they added their
// whole CPU time to the wall time. The static checks run one after another (each is one busy thread), their output is
// held and printed when each ends; vitest's streams as it runs. The first failure ends the run with exit 1 (a static
// failure stops the suite, as `&&` did); `--no-suite` runs only the static checks.
// The format check is Biome's (~0.5 s for the tree; Prettier took ~13 s of CPU for the same files and rules). The type
// check and the lint share ONE TypeScript program (bin/types-and-lint.js): the lint's type-aware rules ask the checker
// the type check has just filled, instead of ESLint's project service building and checking the project a second time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
const STATIC = [
  ['format', bin('biome'), ['format', '.']],
  ['deps', bin('depcruise'), ['--config', '.dependency-cruiser.cjs', 'src', 'backtest', 'strategies', 'bin']],
  ['types and lint', process.execPath, [fileURLToPath(new URL('types-and-lint.js', import.meta.url))]],
];
const suite = !process.argv.includes('--no-suite');
const children = new Set();

function run(cmd, args, { inherit }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    if (!inherit) for (const s of [child.stdout, child.stderr]) s.on('data', (c) => (output += c));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code: code ?? (signal === null ? 1 : 128), output });
    });
  });
}

function fail(what, output) {
  for (const c of children) c.kill('SIGTERM');
  if (output) process.stderr.write(output.endsWith('\n') ? output : `${output}\n`);
  process.stderr.write(`npm test: ${what} failed\n`);
  process.exit(1);
}

async function staticChecks() {
  for (const [name, cmd, args] of STATIC) {
    const t = performance.now();
    const { code, output } = await run(cmd, args, { inherit: false });
    if (code !== 0) fail(name, output);
    process.stdout.write(`npm test: ${name} ok (${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
  }
}

const started = performance.now();
const vitest = suite ? run(bin('vitest'), ['run'], { inherit: true }) : Promise.resolve({ code: 0 });
await staticChecks();
const { code } = await vitest;
if (code !== 0) fail('the test suite');
process.stdout.write(`npm test: all checks passed in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
