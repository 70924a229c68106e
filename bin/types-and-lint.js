#!/usr/bin/env node
// The type check and the lint in ONE TypeScript program (part of `npm test`, bin/test.js). typescript-eslint's
// type-aware rules need a program of the whole project; built by ESLint's project service it was a second parse, bind
// and check of every file the type check had just done (~12 s of CPU on a 2-core machine). Here the type check builds
// the program, reports what `tsc --noEmit -p tsconfig.json` reports, and the lint is given that same program
// (`parserOptions.programs`), so its rules ask a checker that has already answered. Exit 1 when either finds an error,
// 0 otherwise. `--types` or `--lint` runs one of them alone (`npm run typecheck` and `npm run lint` stay the plain tools).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const only = process.argv.includes('--types') ? 'types' : process.argv.includes('--lint') ? 'lint' : undefined;

const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
// as tsc prints them: with colour and the source line on a terminal, one plain line each otherwise (npm test holds the output)
const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
const report = (diagnostics) => process.stdout.write(format(diagnostics, host));

const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    report([d]);
    process.exit(1);
  },
});
if (parsed.errors.length > 0) {
  report(parsed.errors);
  process.exit(1);
}
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });

let failed = false;
if (only !== 'lint') {
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    report(diagnostics);
    process.stdout.write(`\nFound ${diagnostics.length} type error${diagnostics.length === 1 ? '' : 's'}.\n`);
    failed = true;
  }
}
if (only !== 'types') {
  const eslint = new ESLint({
    cwd: root,
    overrideConfig: { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
  });
  const results = await eslint.lintFiles(['.']);
  const text = await (await eslint.loadFormatter('stylish')).format(results);
  if (text) process.stdout.write(text);
  if (results.some((r) => r.errorCount > 0)) failed = true;
}
process.exit(failed ? 1 : 0);
