/**
 * `npm run fuzz-configs -- [--runs N] [--seed S] [--child-every K]`: the config fuzzer's full run (the test suite
 * runs a small fixed-seed one). Prints the tallies and each failure; exit 1 when any case failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fuzzConfigs } from './fuzz-configs.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    'child-every': { type: 'string', default: '10' },
    keep: { type: 'boolean', default: false },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'fuzz-configs-'));
const started = Date.now();
const report = await fuzzConfigs({
  runs: Number(values.runs),
  seed: Number(values.seed),
  childEvery: Number(values['child-every']),
  dir,
  onProgress: (done, total) => {
    if (done % 100 === 0 || done === total) process.stderr.write(`fuzz-configs: ${done}/${total} (${Math.round((Date.now() - started) / 1000)} s)\n`);
  },
});
for (const f of report.failures)
  process.stderr.write(`fuzz-configs: case ${f.index} (${f.how}, ${f.case.kind} from ${f.case.seedFile}: ${f.case.mutations.join('; ')}): ${f.problem}\n`);
process.stdout.write(
  `config fuzz: cases ${report.runs} (seed ${values.seed}), valid ${report.valid}, refused (exit 2) ${report.refused}, child processes ${report.children} (skipped ${report.childrenSkipped}), ` +
    `stack traces ${report.stackTraces}, crashes ${report.crashes}, ${Math.round((Date.now() - started) / 1000)} s\n`,
);
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else process.stderr.write(`fuzz-configs: cases kept in ${dir}\n`);
process.exitCode = report.failures.length === 0 ? 0 : 1;
