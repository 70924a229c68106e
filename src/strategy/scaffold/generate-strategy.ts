import { sourceRoot } from '../../loading/source-root.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../model/errors.js';
import { configTemplate, strategyTemplate, testTemplate, type TemplateNames } from './templates.js';

/** kebab-case: lower-case letters and digits in dash-separated words, starting with a letter (it is also the config id). */
export const STRATEGY_NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 40;

/** The SDK folder (src/strategy/) of this repository, which generated files import. */
// the SDK's TypeScript sources (generated strategies import them), also when this module runs compiled
const SDK_DIR = path.join(sourceRoot(import.meta.url), 'src', 'strategy');

export interface ScaffoldOptions {
  /** kebab-case strategy name. */
  readonly name: string;
  /** Folder that receives strategies/<name>/index.ts, test/strategies/<name>.test.ts, config/<name>.yaml. Default: cwd. */
  readonly dir?: string;
  /** Where `bot run` will be started (the config's `use:` path is relative to it). Default: process.cwd(). */
  readonly cwd?: string;
  /** The SDK folder to import from. Default: this repository's src/strategy/. */
  readonly sdkDir?: string;
}

export interface ScaffoldFile {
  /** Absolute path. */
  readonly path: string;
  /** Path relative to `cwd`, for messages. */
  readonly display: string;
  readonly content: string;
}

/** Throws a ConfigError saying what a valid name looks like. */
export function validateStrategyName(name: string): void {
  if (!STRATEGY_NAME_PATTERN.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new ConfigError(
      `invalid strategy name ${JSON.stringify(name)}: use kebab-case (lower-case letters and digits in words joined by single dashes, ` +
        `starting with a letter, at most ${MAX_NAME_LENGTH} characters), e.g. my-strategy`,
    );
  }
}

/**
 * The files of a new strategy, with imports pointing at this repository's SDK from wherever they are written.
 * Pure apart from reading nothing: no file is touched (see `writeScaffold`).
 */
export function planScaffold(options: ScaffoldOptions): ScaffoldFile[] {
  validateStrategyName(options.name);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const dir = path.resolve(cwd, options.dir ?? '.');
  const sdkDir = path.resolve(options.sdkDir ?? SDK_DIR);
  const name = options.name;
  const strategyFile = path.join(dir, 'strategies', name, 'index.ts');
  const testFile = path.join(dir, 'test', 'strategies', `${name}.test.ts`);
  const configFile = path.join(dir, 'config', `${name}.yaml`);
  const ident = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const names: TemplateNames = {
    name,
    ident,
    paramsType: `${ident[0]!.toUpperCase()}${ident.slice(1)}Params`,
    sdkFromStrategy: importSpecifier(path.dirname(strategyFile), path.join(sdkDir, 'index.ts')),
    sdkFromTest: importSpecifier(path.dirname(testFile), path.join(sdkDir, 'index.ts')),
    testingFromTest: importSpecifier(path.dirname(testFile), path.join(sdkDir, 'testing.ts')),
    strategyFromTest: importSpecifier(path.dirname(testFile), strategyFile),
    strategyFromCwd: toPosix(relativeDotted(cwd, strategyFile)),
  };
  const file = (p: string, content: string): ScaffoldFile => ({ path: p, display: toPosix(path.relative(cwd, p)) || p, content });
  return [
    file(strategyFile, strategyTemplate(names)),
    file(testFile, testTemplate(names)),
    file(configFile, configTemplate(names)),
  ];
}

/**
 * Writes the planned files, creating folders. Refuses (ConfigError, nothing written) when ANY of them exists:
 * a scaffold never overwrites work.
 */
export function writeScaffold(files: readonly ScaffoldFile[]): void {
  const existing = files.filter((f) => existsSync(f.path));
  if (existing.length > 0) {
    throw new ConfigError(`refusing to overwrite existing file${existing.length > 1 ? 's' : ''}: ${existing.map((f) => f.display).join(', ')}`);
  }
  for (const f of files) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content, { flag: 'wx' }); // wx: fail rather than clobber a file created meanwhile
  }
}

/** An ESM import specifier from a folder to a .ts module, as tsx resolves it (`.js` extension, `./` prefix). */
function importSpecifier(fromDir: string, targetTs: string): string {
  return toPosix(relativeDotted(fromDir, targetTs)).replace(/\.ts$/, '.js');
}

function relativeDotted(from: string, to: string): string {
  const rel = path.relative(from, to);
  return rel.startsWith('.') || path.isAbsolute(rel) ? rel : `./${rel}`;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
