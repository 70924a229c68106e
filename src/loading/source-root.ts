import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root directory (where package.json, bin/, config/ and the TypeScript sources are), from any
 * module, whether it runs from the sources (through tsx) or from the compiled copy `npm run build` makes: a build
 * writes `build.json` with the root it was made from.
 */
export function sourceRoot(moduleUrl: string): string {
  for (let dir = dirname(fileURLToPath(moduleUrl)); dirname(dir) !== dir; dir = dirname(dir)) {
    const build = join(dir, 'build.json');
    if (existsSync(build)) return (JSON.parse(readFileSync(build, 'utf8')) as { root: string }).root;
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
}

/** True when this module was compiled by `npm run build` (its files are .js, not the .ts sources). */
export function runsCompiled(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.js');
}
