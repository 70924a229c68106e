import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../model/errors.js';
import { loadYamlConfig } from '../settings/load-yaml.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, type SimConfig } from './sim-config.js';

/**
 * The config of the sim a daemon embeds (`venue: { kind: sim, sim: { file?, ...overrides } }`): the sim file (or
 * the built-in config), then the overrides deep-merged over it. Every problem is a ConfigError naming the daemon's
 * config file and `venue.sim` (and the sim file when one is given): an unreadable sim file too, which used to
 * surface as a bare ENOENT with exit 1 (a config-fuzzer finding).
 */
export function embeddedSimConfig(
  sim: Readonly<Record<string, unknown>> | undefined,
  o: { readonly cwd: string; readonly configFile: string; readonly env?: NodeJS.ProcessEnv },
): SimConfig {
  const { file, ...overrides } = sim ?? {};
  let base: unknown = DEFAULT_SIM_CONFIG_INPUT;
  if (typeof file === 'string') {
    const path = resolve(o.cwd, file);
    try {
      base = loadYamlConfig(path, z.unknown(), o.env);
    } catch (error) {
      // an unreadable file is the daemon config's problem (its venue.sim.file); a bad one names its own lines
      if (error instanceof ConfigError && error.message.startsWith(`${path}: cannot read`)) {
        throw new ConfigError(`${o.configFile}: venue.sim.file: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
  return parseSimConfig(
    deepMerge(base, overrides),
    typeof file === 'string' ? `${o.configFile}: venue.sim (${file} + overrides)` : `${o.configFile}: venue.sim`,
  );
}

/** Objects merge key by key; arrays and scalars from `over` replace. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
