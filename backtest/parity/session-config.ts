/**
 * The session's config: the daemon config it ran with (`bot run <config.yaml>`), read for what a replay needs: the
 * strategies (use, market, params, risk) and the polling. The rest (venue, journal, ops, alerts, recording) is not
 * checked here: the daemon checked it when it ran, and parity never contacts a venue, so `${VARIABLES}` that are not
 * set now (an API key) read as empty instead of failing.
 *
 * Without `--config`, the config is looked for beside the journal: the one YAML file in the journal's folder whose
 * `journal.path` names a file of the journal's name and whose strategies include every strategy of the session's
 * start record. None or several: a ConfigError asking for `--config`.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';

export const SessionConfigSchema = z.looseObject({
  strategies: DaemonConfigSchema.shape.strategies,
  polling: DaemonConfigSchema.shape.polling,
  executor: DaemonConfigSchema.shape.executor,
  risk: DaemonConfigSchema.shape.risk,
  journal: z.looseObject({ path: z.string().optional() }).optional(),
});

export type SessionConfig = z.output<typeof SessionConfigSchema>;

/** The environment with every unset variable read as empty (see above: nothing read from it reaches a venue). */
function lenientEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return new Proxy(env, { get: (target, key) => (typeof key === 'string' ? (target[key] ?? '') : undefined) });
}

export function loadSessionConfig(file: string, env: NodeJS.ProcessEnv = process.env): SessionConfig {
  return loadYamlConfig(file, SessionConfigSchema, lenientEnv(env));
}

/** The config given, or the one found beside the journal (see above). */
export function findSessionConfig(
  journal: string,
  strategies: readonly string[],
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
): { file: string; config: SessionConfig } {
  if (explicit !== undefined) return { file: explicit, config: loadSessionConfig(explicit, env) };
  const dir = dirname(journal);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.ya?ml$/.test(n));
  } catch {
    names = [];
  }
  const found: { file: string; config: SessionConfig }[] = [];
  for (const name of names.sort()) {
    const file = join(dir, name);
    let config: SessionConfig;
    try {
      config = loadSessionConfig(file, env);
    } catch {
      continue;
    }
    const ids = new Set(config.strategies.map((s) => s.id));
    if (basename(config.journal?.path ?? 'journal.jsonl') === basename(journal) && strategies.every((s) => ids.has(s))) found.push({ file, config });
  }
  if (found.length === 1) return found[0]!;
  const why =
    found.length === 0
      ? `no daemon config in ${dir} names the journal ${basename(journal)} and its strategies (${strategies.join(', ')})`
      : `several configs in ${dir} fit the journal (${found.map((f) => basename(f.file)).join(', ')})`;
  throw new ConfigError(`--config: ${why}; give the session's daemon config with --config FILE`);
}
