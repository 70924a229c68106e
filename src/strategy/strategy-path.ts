import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../model/errors.js';

/** How a config's `use:` path is found: from the config file's folder, like its `data:` paths. */
export interface ConfigRelative {
  /** The config file the `use:` is written in. */
  readonly configFile: string;
  /** The folder `bot` runs in: where `use:` paths were looked up before (kept, with a warning). Default cwd. */
  readonly cwd?: string | undefined;
  /** Told when a path is found only from `cwd`. Default: a line on stderr. */
  readonly warn?: ((message: string) => void) | undefined;
}

/** A `use:` that names a module file (`./x.ts`, `strategies/y/index.js`) rather than a built-in strategy. */
export function looksLikeModulePath(use: string): boolean {
  return /[\\/]/.test(use) || /\.(ts|js|mts|mjs)$/.test(use);
}

/**
 * The module file a config's `use:` path names: relative to the config file's folder, as every path in a config is
 * (a config means the same from whatever folder `bot` is started in). A path found there wins; one found only from
 * the current folder, as `use:` was resolved before, is still taken, with a warning saying what to write instead.
 * Found in neither: a ConfigError saying where it was looked for. A built-in name or an absolute path is returned as
 * it is; `where` (e.g. `config/x.yaml: strategies[0].use`) starts the messages.
 */
export function resolveStrategyUse(use: string, base: ConfigRelative, where = `${base.configFile}: use`): string {
  // not a module file: loadStrategy says what is wrong with it
  if (!looksLikeModulePath(use) || !/\.(ts|js|mts|mjs)$/.test(use) || path.isAbsolute(use)) return use;
  const configDir = path.dirname(path.resolve(base.configFile));
  const fromConfig = path.resolve(configDir, use);
  if (existsSync(fromConfig)) return fromConfig;
  const cwd = path.resolve(base.cwd ?? process.cwd());
  const fromCwd = path.resolve(cwd, use);
  if (existsSync(fromCwd)) {
    const instead = path.relative(configDir, fromCwd).split(path.sep).join('/');
    const warn = base.warn ?? ((m: string) => void process.stderr.write(`bot: warning: ${m}\n`));
    warn(
      `${where}: '${use}' was found from the current folder (${cwd}), not from the config file's folder (${configDir}); ` +
        `paths in a config are relative to its folder: write '${instead.startsWith('.') ? instead : `./${instead}`}'`,
    );
    return fromCwd;
  }
  throw new ConfigError(
    `${where}: strategy '${use}': file not found: ${fromConfig} (a path in a config is relative to the config file's folder, ${configDir})`,
  );
}
