import fc from 'fast-check';
import { parse, stringify } from 'yaml';

/**
 * Mutated configs for the config fuzzer (issue 15): a real config of the project (daemon, backtest or sim),
 * parsed, then 1-3 mutations: a key deleted, a value replaced by a wrong type, a huge, negative, NaN or
 * infinite number, a unicode or very long string, an unset ${VAR}; or the YAML text cut short.
 */
export type ConfigKind = 'daemon' | 'backtest' | 'sim';

export interface Mutated {
  readonly kind: ConfigKind;
  readonly seedFile: string;
  /** The YAML text to write. */
  readonly text: string;
  /** What was done, for a failure message. */
  readonly mutations: readonly string[];
}

/** Seed configs per kind, relative to the repository root. */
export const SEEDS: Readonly<Record<ConfigKind, readonly string[]>> = {
  daemon: ['config/default.yaml', 'config/grid.yaml', 'config/market-maker.yaml', 'config/stop-guard.yaml', 'config/twap.yaml', 'test/chaos/fixtures/daemon-sim-file.yaml'],
  backtest: ['config/backtest.yaml'],
  sim: ['config/sim.yaml'],
};

const HUGE = '__HUGE_1E400__';

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom('', ' ', '０．１', '١٢٣', '\u202e30000', 'zero\u200bwidth', '💸', 'NaN', '-0', '1e5', '0x10', '${CHAOS_UNSET_VAR}', '$${X}', 'null', '~', 'a'.repeat(5000)),
  fc.integer(),
  fc.constantFrom(-1, 0, -0.0001, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 1e-30),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, HUGE),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxKeys: 3 }),
);

type Op = { readonly op: 'delete'; readonly at: number } | { readonly op: 'replace'; readonly at: number; readonly value: unknown } | { readonly op: 'truncate'; readonly fraction: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: weirdValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
);

export function mutatedConfig(kind: ConfigKind, read: (file: string) => string): fc.Arbitrary<Mutated> {
  return fc.record({ seedFile: fc.constantFrom(...SEEDS[kind]), ops: fc.array(op, { minLength: 1, maxLength: 3 }) }).map(({ seedFile, ops }) => apply(kind, seedFile, read(seedFile), ops));
}

function apply(kind: ConfigKind, seedFile: string, source: string, ops: readonly Op[]): Mutated {
  let doc: unknown = parse(source);
  const mutations: string[] = [];
  let truncateAt: number | undefined;
  for (const o of ops) {
    if (o.op === 'truncate') {
      truncateAt = o.fraction;
      continue;
    }
    const paths = allPaths(doc);
    if (paths.length === 0) continue;
    const path = paths[o.at % paths.length]!;
    if (o.op === 'delete') {
      doc = removeAt(doc, path);
      mutations.push(`delete ${path.join('.')}`);
    } else {
      doc = setAt(doc, path, o.value);
      mutations.push(`set ${path.join('.')} = ${short(o.value)}`);
    }
  }
  let text = stringify(doc, { lineWidth: 0 }).replaceAll(`"${HUGE}"`, '1e400').replaceAll(HUGE, '1e400');
  if (truncateAt !== undefined) {
    const cut = Math.floor(text.length * truncateAt);
    mutations.push(`truncate at byte ${cut} of ${text.length}`);
    text = text.slice(0, cut);
  }
  return { kind, seedFile, text, mutations };
}

function short(v: unknown): string {
  const s = typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…(${s.length})` : s;
}

type Path = ReadonlyArray<string | number>;

function allPaths(v: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(v)) v.forEach((x, i) => out.push([...prefix, i], ...allPaths(x, [...prefix, i])));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push([...prefix, k], ...allPaths(x, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((x, i) => (i === head ? setAt(x, rest, value) : x));
  const obj = root as Record<string, unknown>;
  return { ...obj, [head as string]: setAt(obj[head as string], rest, value) };
}

function removeAt(root: unknown, path: Path): unknown {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    if (Array.isArray(root)) return root.filter((_, i) => i !== head);
    const { [head as string]: _gone, ...others } = root as Record<string, unknown>;
    return others;
  }
  if (Array.isArray(root)) return root.map((x, i) => (i === head ? removeAt(x, rest) : x));
  const obj = root as Record<string, unknown>;
  return { ...obj, [head as string]: removeAt(obj[head as string], rest) };
}
