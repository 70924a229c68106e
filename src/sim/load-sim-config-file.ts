import { z } from 'zod';
import { loadYamlConfig } from '../settings/load-yaml.js';
import { parseSimConfig, SimConfigSchema, type SimConfig } from './sim-config.js';

/**
 * Reads a sim config YAML file (`bot sim --config FILE`). Two passes: the shared loader with the
 * sim schema gives `file:line:col: path: expected X, got Y` for every field problem (and ${ENV}
 * interpolation); then the sim's own parse adds the cross-field checks the schema cannot express
 * (flow account exists, market names match their assets, no duplicate keys). Throws ConfigError.
 */
export function loadSimConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): SimConfig {
  loadYamlConfig(file, SimConfigSchema, env);
  return parseSimConfig(loadYamlConfig(file, z.unknown(), env), file);
}
