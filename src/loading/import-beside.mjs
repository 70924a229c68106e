// Imports a module that sits beside the caller, from whichever tree the caller runs in: the compiled copy of
// `npm run build` (name.js present) without tsx, or the TypeScript sources (name.ts) through tsx's loader, registered
// once per thread. Plain JavaScript, so a worker thread's entry can use it before anything TypeScript is loaded.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let tsx;

export async function importBeside(callerUrl, name) {
  const compiled = new URL(`./${name}.js`, callerUrl);
  if (existsSync(fileURLToPath(compiled))) return import(compiled.href);
  tsx ??= import('tsx/esm/api').then(({ register }) => void register());
  await tsx;
  return import(new URL(`./${name}.ts`, callerUrl).href);
}
