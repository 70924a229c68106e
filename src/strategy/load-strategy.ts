import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { ConfigError } from '../model/errors.js';
import type { StrategyDefinition } from './define-strategy.js';
import type { StrategyRegistry } from './strategy-registry.js';
import { runsCompiled } from '../loading/source-root.js';
import { objectKeysAt } from '../settings/schema-keys.js';
import { unknownKeyText } from '../settings/suggest-key.js';
import { formatConfigPath } from '../settings/env-interpolate.js';
import { yamlPositionInFile } from '../settings/yaml-locate.js';
import { looksLikeModulePath, resolveStrategyUse, type ConfigRelative } from './strategy-path.js';

/**
 * Loads a strategy module: a name in `builtins` (`market-maker`; the built-in registry is `strategies/index.ts`,
 * passed in by the composition root) imports that module; anything else is a path to a `.ts` or `.js` module,
 * relative to `base`: a folder, or the config file the path is written in (`ConfigRelative`: from the config's
 * folder, see strategy-path.ts). The module's default export must be a StrategyDefinition (made with
 * `defineStrategy`). Every failure is a ConfigError saying which; with `where` (e.g. `config/x.yaml:
 * strategies[0].use`) its message starts with it, so it names the config file and path like every other config error.
 */
export async function loadStrategy(
  builtins: StrategyRegistry,
  nameOrPath: string,
  base: string | ConfigRelative = process.cwd(),
  where?: string,
): Promise<StrategyDefinition> {
  try {
    if (typeof base === 'string') return await loadStrategyModule(builtins, nameOrPath, base);
    const file = resolveStrategyUse(nameOrPath, base, where ?? `${base.configFile}: use`);
    return await loadStrategyModule(builtins, file, path.dirname(path.resolve(base.configFile)), nameOrPath);
  } catch (error) {
    // resolveStrategyUse names `where` itself
    if (where !== undefined && error instanceof ConfigError && !error.message.startsWith(`${where}: `))
      throw new ConfigError(`${where}: ${error.message}`, { cause: error.cause ?? error });
    throw error;
  }
}

/** `shown`: the `use:` as written, for messages (`nameOrPath` may be the file it was resolved to). */
async function loadStrategyModule(builtins: StrategyRegistry, nameOrPath: string, cwd: string, shown = nameOrPath): Promise<StrategyDefinition> {
  // own properties only: `use: constructor` is not a built-in
  const builtin = Object.hasOwn(builtins, nameOrPath) ? builtins[nameOrPath] : undefined;
  const file = builtin === undefined ? resolveStrategyFile(builtins, nameOrPath, cwd, shown) : `the built-in '${nameOrPath}'`;
  if (builtin === undefined && /\.(ts|mts)$/.test(file)) await loadTypeScript();
  let mod: unknown;
  try {
    mod = builtin === undefined ? await import(pathToFileURL(file).href) : await builtin();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(`strategy '${shown}': cannot load ${file}: ${why}`, { cause });
  }
  const def = (mod as { default?: unknown } | undefined)?.default;
  if (!isStrategyDefinition(def)) {
    throw new ConfigError(
      `strategy '${shown}': ${file} must default-export a strategy made with defineStrategy({ name, params, create }) ` +
        `(found ${def === undefined ? 'no default export' : describe(def)})`,
    );
  }
  return def;
}

let typescript: Promise<void> | undefined;

/**
 * A strategy written in TypeScript needs tsx's loader. From the sources it is registered already (bin/bot.js,
 * vitest); from the compiled copy (`npm run build`) it is registered here, on the first TypeScript strategy only,
 * so a daemon of built-in strategies starts without it.
 */
function loadTypeScript(): Promise<void> {
  if (!runsCompiled(import.meta.url)) return Promise.resolve();
  typescript ??= import('tsx/esm/api').then(({ register }) => void register());
  return typescript;
}

function resolveStrategyFile(builtins: StrategyRegistry, nameOrPath: string, cwd: string, shown: string): string {
  if (!looksLikeModulePath(nameOrPath)) {
    throw new ConfigError(
      `unknown strategy '${nameOrPath}': use a built-in (${Object.keys(builtins).join(', ')}) or a path to a .ts/.js module (e.g. ./my-strategy.ts)`,
    );
  }
  if (!/\.(ts|js|mts|mjs)$/.test(nameOrPath)) {
    throw new ConfigError(`strategy '${shown}': a strategy path must name a .ts or .js file`);
  }
  const file = path.resolve(cwd, nameOrPath);
  if (!existsSync(file)) throw new ConfigError(`strategy '${shown}': file not found: ${file}`);
  return file;
}

function isStrategyDefinition(value: unknown): value is StrategyDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const params = v['params'] as { safeParse?: unknown } | undefined;
  return typeof v['name'] === 'string' && typeof v['create'] === 'function' && typeof params?.safeParse === 'function';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const keys = Object.keys(value);
  return `an object with keys [${keys.join(', ')}]`;
}

/** Where a strategy's params are written in a YAML config file: each problem then names its line and column. */
export interface ParamsSite {
  readonly file: string;
  /** The params mapping's path in the file, e.g. `['strategies', 0, 'params']`. */
  readonly path: readonly PropertyKey[];
}

/**
 * Validates raw params (from YAML) with the strategy's schema, applying its defaults; absent params are `{}`.
 * `where` names the place in the config: a text (e.g. `config/x.yaml: strategies[0].params`), or the file and path
 * (`ParamsSite`), which also gives each problem's line and column (`config/x.yaml:12:7: strategies[0].params.sprad`;
 * an unknown key's own, not its value's). A failure is a ConfigError listing every problem, one per line.
 */
export function parseParams<S extends z.ZodType>(def: StrategyDefinition<S>, raw: unknown, where: string | ParamsSite): z.output<S> {
  const result = def.params.safeParse(raw ?? {});
  if (result.success) return result.data;
  const place = (sub: readonly PropertyKey[], atKey: boolean): string => {
    if (typeof where === 'string') return `${where}${sub.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
    const at = yamlPositionInFile(where.file, [...where.path, ...sub], atKey);
    return `${where.file}${at === undefined ? '' : `:${at.line}:${at.col}`}: ${formatConfigPath([...where.path, ...sub])}`;
  };
  const problems = result.error.issues.flatMap((issue) => {
    // one line per unknown key, named in the path, with the near miss when there is one (`sprad` → `spread`)
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${place([...issue.path, key], true)}: ${unknownKeyText(key, objectKeysAt(def.params, issue.path, issue.input))}`);
    return [`${place(issue.path, false)}: ${issue.message}`];
  });
  throw new ConfigError(`invalid params for strategy '${def.name}':\n  ${problems.join('\n  ')}`, { cause: result.error });
}
