/**
 * `${NAME}` / `${NAME:-default}` substitution in the string values of a parsed config, shell-style:
 * `:-` applies the default when the variable is unset OR empty; `$$` writes a literal `$` (as in
 * docker compose), so `$${X}` stays `${X}`. Keys are never interpolated. A variable that is unset and has
 * no default, or a malformed reference, is reported with the path of the value that holds it; the
 * variable's value is never part of a message (it may be a secret).
 */

export type ConfigPath = readonly (string | number)[];

export interface InterpolationProblem {
  readonly path: ConfigPath;
  readonly message: string;
}

const REFERENCE = /\$\$|\$\{([^}]*)\}/g;
const INNER = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/** Interpolates one string; problems are pushed (with `path`) and the reference is left as written. */
export function interpolateString(text: string, env: NodeJS.ProcessEnv, path: ConfigPath, problems: InterpolationProblem[]): string {
  return text.replace(REFERENCE, (whole: string, inner: string | undefined) => {
    if (whole === '$$') return '$';
    const m = INNER.exec(inner ?? '');
    if (m === null) {
      problems.push({ path, message: `malformed variable reference "${whole}" (expected \${NAME} or \${NAME:-default})` });
      return whole;
    }
    const name = m[1] as string;
    const fallback = m[2];
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    if (value === '') return value;
    problems.push({ path, message: `environment variable ${name} is not set and has no default (write \${${name}:-default} to give one)` });
    return whole;
  });
}

/** A copy of `value` with every string interpolated; arrays and plain objects are walked. */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv, problems: InterpolationProblem[], path: ConfigPath = []): unknown {
  if (typeof value === 'string') return interpolateString(value, env, path, problems);
  if (Array.isArray(value)) return value.map((item, i) => interpolateEnv(item, env, problems, [...path, i]));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = interpolateEnv(item, env, problems, [...path, key]);
    return out;
  }
  return value;
}

/** `strategies[0].params.spread`; the empty path is `(root)`. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else {
      const k = String(key);
      out += /^[A-Za-z_$][\w$-]*$/.test(k) ? (out === '' ? k : `.${k}`) : `[${JSON.stringify(k)}]`;
    }
  }
  return out;
}
