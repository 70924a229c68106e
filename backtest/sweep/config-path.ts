/**
 * Param paths of a sweep (`strategies[0].params.spread`, `polling.bookMs`, `latency.requestMs`): parsed into
 * keys and written into a plain copy of the base backtest config. The leaf may be new (a strategy param left at
 * its default); every step before it must exist, so a typo in `strategies[1]` or `polling` fails at load.
 */
import { ConfigError } from '../../src/model/errors.js';

export type PathKey = string | number;

const STEP = /^(?:\.?([A-Za-z_$][\w$-]*)|\[(\d+)\])/;

export function parseParamPath(path: string): PathKey[] {
  const keys: PathKey[] = [];
  let rest = path.trim();
  if (rest === '' || rest.startsWith('.')) throw new ConfigError(`param path '${path}': expected a path such as strategies[0].params.spread`);
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (m === null) throw new ConfigError(`param path '${path}': cannot read '${rest}' (expected .name or [index])`);
    keys.push(m[1] !== undefined ? m[1] : Number(m[2]));
    rest = rest.slice(m[0].length);
  }
  return keys;
}

/** Why the path cannot be set in `root` (a missing container), or undefined when it can. */
export function pathProblem(root: unknown, keys: readonly PathKey[]): string | undefined {
  let node: unknown = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    const next = container(node, key);
    if (next === undefined) return `${describe(keys.slice(0, i + 1))} is not in the base config`;
    node = next;
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node) !== (typeof keys[keys.length - 1] === 'number')) {
    return `${describe(keys.slice(0, -1)) || 'the config'} is not ${typeof keys[keys.length - 1] === 'number' ? 'a list' : 'a mapping'}`;
  }
  return undefined;
}

function container(node: unknown, key: PathKey): object | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const next = (node as Record<PathKey, unknown>)[key];
  return next !== null && typeof next === 'object' ? next : undefined;
}

/** A deep copy of `root` with `value` at each path (paths checked with pathProblem first). */
export function withValues(root: unknown, assignments: ReadonlyArray<readonly [readonly PathKey[], unknown]>): unknown {
  const copy = structuredClone(root);
  for (const [keys, value] of assignments) {
    let node = copy as Record<PathKey, unknown>;
    for (const key of keys.slice(0, -1)) node = node[key] as Record<PathKey, unknown>;
    node[keys[keys.length - 1]!] = value;
  }
  return copy;
}

export function describe(keys: readonly PathKey[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}
