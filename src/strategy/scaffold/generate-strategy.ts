import { sourceRoot } from '../../loading/source-root.js';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../model/errors.js';
import { backtestTemplate, configTemplate, strategyTemplate, testTemplate, type TemplateNames } from './templates.js';

/** kebab-case: lower-case letters and digits in dash-separated words, starting with a letter (it is also the config id). */
export const STRATEGY_NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME_LENGTH = 40;

/** The SDK folder (src/strategy/) of this repository, which generated files import. */
// the SDK's TypeScript sources (generated strategies import them), also when this module runs compiled
const SDK_DIR = path.join(sourceRoot(import.meta.url), 'src', 'strategy');
/** The recording the generated backtest config replays. */
const SAMPLE_DATA = path.join(sourceRoot(import.meta.url), 'backtest', 'sample-data', 'sim-btc-usdt.jsonl.gz');

export interface ScaffoldOptions {
  /** kebab-case strategy name. */
  readonly name: string;
  /**
   * Folder that receives strategies/<name>/index.ts, test/strategies/<name>.test.ts, config/<name>.yaml and
   * config/<name>.backtest.yaml. Default: cwd.
   */
  readonly dir?: string;
  /** Where the commands printed and written in the files run (their paths are relative to it). Default: process.cwd(). */
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
 * The files of a new strategy, with imports pointing at this repository's SDK from wherever they are written, and
 * the commands that try them, which run as printed from `cwd`. Pure apart from reading nothing: no file is touched
 * (see `writeScaffold`).
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
  const backtestFile = path.join(dir, 'config', `${name}.backtest.yaml`);
  const display = (p: string): string => toPosix(path.relative(cwd, p)) || p;
  const ident = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const names: TemplateNames = {
    name,
    ident,
    paramsType: `${ident[0]!.toUpperCase()}${ident.slice(1)}Params`,
    sdkFromStrategy: importSpecifier(path.dirname(strategyFile), path.join(sdkDir, 'index.ts')),
    testingFromTest: importSpecifier(path.dirname(testFile), path.join(sdkDir, 'testing.ts')),
    strategyFromTest: importSpecifier(path.dirname(testFile), strategyFile),
    strategyFromConfig: toPosix(relativeDotted(path.dirname(configFile), strategyFile)),
    sampleFromConfig: toPosix(relativeDotted(path.dirname(configFile), SAMPLE_DATA)),
    strategyDisplay: display(strategyFile),
    testDisplay: display(testFile),
    configDisplay: display(configFile),
    backtestDisplay: display(backtestFile),
    testCommand: testCommand(cwd, dir, testFile),
  };
  const file = (p: string, content: string): ScaffoldFile => ({ path: p, display: display(p), content });
  return [
    file(strategyFile, strategyTemplate(names)),
    file(testFile, testTemplate(names)),
    file(configFile, configTemplate(names)),
    file(backtestFile, backtestTemplate(names)),
  ];
}

/**
 * What to run next, one command a line, each as it runs from `cwd` (`bot new-strategy` prints them): the test, a
 * backtest on the sample recording, the daemon against the embedded simulated exchange.
 */
export function nextSteps(files: readonly ScaffoldFile[], cwd: string = process.cwd()): string[] {
  const [strategy, test, config, backtest] = files;
  if (strategy === undefined || test === undefined || config === undefined || backtest === undefined)
    throw new Error('nextSteps: expected the four planned files');
  const dir = path.resolve(path.dirname(test.path), '..', '..');
  return [
    `${testCommand(path.resolve(cwd), dir, test.path)}   # its test, on virtual time`,
    `npx bot backtest ${backtest.display}   # on the sample recording; prints a summary, writes a report`,
    `npx bot run ${config.display} --dry-run   # against the simulated exchange, sending nothing; Ctrl-C stops it`,
    `then edit ${strategy.display} (desiredOrders)`,
  ];
}

/**
 * `npx vitest run <test>` from `cwd`. vitest.config.ts finds tests under test/ of the folder it scans, so a
 * strategy written into another folder (--dir) has its test run with that folder scanned.
 */
function testCommand(cwd: string, dir: string, testFile: string): string {
  if (dir === cwd) return `npx vitest run ${toPosix(path.relative(cwd, testFile))}`;
  return `npx vitest run --dir ${toPosix(path.relative(cwd, dir)) || '.'} ${toPosix(path.relative(cwd, testFile))}`;
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
