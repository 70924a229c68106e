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

/**
 * Loads a strategy module: a name in `builtins` (`market-maker`; the built-in registry is `strategies/index.ts`,
 * passed in by the composition root) imports that module; anything else is a path to a `.ts` or `.js` module,
 * relative to `cwd`. The module's default export must be a StrategyDefinition (made with `defineStrategy`). Every
 * failure is a ConfigError saying which; with `where` (e.g. `config/x.yaml: strategies[0].use`) its message starts
 * with it, so it names the config file and path like every other config error.
 */
export async function loadStrategy(builtins: StrategyRegistry, nameOrPath: string, cwd: string = process.cwd(), where?: string): Promise<StrategyDefinition> {
  if (where === undefined) return loadStrategyModule(builtins, nameOrPath, cwd);
  try {
    return await loadStrategyModule(builtins, nameOrPath, cwd);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${where}: ${error.message}`, { cause: error.cause ?? error });
    throw error;
  }
}

async function loadStrategyModule(builtins: StrategyRegistry, nameOrPath: string, cwd: string): Promise<StrategyDefinition> {
  // own properties only: `use: constructor` is not a built-in
  const builtin = Object.hasOwn(builtins, nameOrPath) ? builtins[nameOrPath] : undefined;
  const file = builtin === undefined ? resolveStrategyFile(builtins, nameOrPath, cwd) : `the built-in '${nameOrPath}'`;
  if (builtin === undefined && /\.(ts|mts)$/.test(file)) await loadTypeScript();
  let mod: unknown;
  try {
    mod = builtin === undefined ? await import(pathToFileURL(file).href) : await builtin();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new ConfigError(`strategy '${nameOrPath}': cannot load ${file}: ${why}`, { cause });
  }
  const def = (mod as { default?: unknown } | undefined)?.default;
  if (!isStrategyDefinition(def)) {
    throw new ConfigError(
      `strategy '${nameOrPath}': ${file} must default-export a strategy made with defineStrategy({ name, params, create }) ` +
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

function resolveStrategyFile(builtins: StrategyRegistry, nameOrPath: string, cwd: string): string {
  const looksLikePath = /[\\/]/.test(nameOrPath) || /\.(ts|js|mts|mjs)$/.test(nameOrPath);
  if (!looksLikePath) {
    throw new ConfigError(
      `unknown strategy '${nameOrPath}': use a built-in (${Object.keys(builtins).join(', ')}) or a path to a .ts/.js module (e.g. ./my-strategy.ts)`,
    );
  }
  if (!/\.(ts|js|mts|mjs)$/.test(nameOrPath)) {
    throw new ConfigError(`strategy '${nameOrPath}': a strategy path must name a .ts or .js file`);
  }
  const file = path.resolve(cwd, nameOrPath);
  if (!existsSync(file)) throw new ConfigError(`strategy '${nameOrPath}': file not found: ${file}`);
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

/**
 * Validates raw params (from YAML) with the strategy's schema, applying its defaults; absent params are `{}`.
 * `where` names the place in the config (e.g. `config/x.yaml: strategies[0].params`); a failure is a
 * ConfigError listing every problem as `<where>.<path>: <message>`.
 */
export function parseParams<S extends z.ZodType>(def: StrategyDefinition<S>, raw: unknown, where: string): z.output<S> {
  const result = def.params.safeParse(raw ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => {
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    // one line per unknown key, named in the path, with the near miss when there is one (`sprad` → `spread`)
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${where}${at}.${key}: ${unknownKeyText(key, objectKeysAt(def.params, issue.path, issue.input))}`);
    return [`${where}${at}: ${issue.message}`];
  });
  throw new ConfigError(`invalid params for strategy '${def.name}':\n  ${problems.join('\n  ')}`, { cause: result.error });
}
