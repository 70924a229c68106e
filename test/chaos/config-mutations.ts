import fc from 'fast-check';
import { parse, stringify } from 'yaml';

/**
 * Mutated configs for the config fuzzer (issue 15): a real config of the project (daemon, backtest or sim),
 * parsed, then 1-3 mutations: a key deleted, a value replaced by a wrong type, a huge, negative, NaN or
 * infinite number, a unicode or very long string, an unset ${VAR}; or the YAML text cut short. Issue 24 adds the
 * mistakes that used to drop a limit or destroy a file: journal.path or log.file set to a special file (/dev/null,
 * a directory, /proc/..., a FIFO, a path under a file), a maxInventory ticker typo, a param typo.
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
  daemon: [
    'config/default.yaml',
    'config/grid.yaml',
    'config/market-maker.yaml',
    'config/stop-guard.yaml',
    'config/twap.yaml',
    'test/chaos/fixtures/daemon-sim-file.yaml',
  ],
  backtest: ['config/backtest.yaml'],
  sim: ['config/sim.yaml'],
};

const HUGE = '__HUGE_1E400__';

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(
    '',
    ' ',
    '０．１',
    '١٢٣',
    '\u202e30000',
    'zero\u200bwidth',
    '💸',
    'NaN',
    '-0',
    '1e5',
    '0x10',
    '${CHAOS_UNSET_VAR}',
    '$${X}',
    'null',
    '~',
    'a'.repeat(5000),
  ),
  fc.integer(),
  fc.constantFrom(-1, 0, -0.0001, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 1e-30),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, HUGE),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxKeys: 3 }),
);

/**
 * Placeholders of the special paths, replaced when a case is written (fuzz-configs.ts): the case's own folder, a
 * FIFO made there with mkfifo, and the case's config file (a file where a folder is expected).
 */
export const CASE_DIR = '__CASE_DIR__';
export const CASE_FIFO = `${CASE_DIR}/fifo`;
export const CASE_FILE = '__CASE_FILE__';

/** journal.path / log.file values that name no regular file the daemon could own. */
export const SPECIAL_PATHS: readonly string[] = ['/dev/null', CASE_DIR, '/proc/1/nope/j.jsonl', CASE_FIFO, `${CASE_FILE}/j.jsonl`];
export const PATH_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['journal', 'path'],
  ['log', 'file'],
];

type Special = 'path' | 'ticker' | 'param';
type Op =
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly op: 'truncate'; readonly fraction: number }
  | { readonly op: 'special'; readonly what: Special; readonly at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: weirdValue }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), fraction: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('special' as const), what: fc.constantFrom<Special>('path', 'ticker', 'param'), at: fc.nat() }) },
);

export function mutatedConfig(kind: ConfigKind, read: (file: string) => string): fc.Arbitrary<Mutated> {
  return fc
    .record({ seedFile: fc.constantFrom(...SEEDS[kind]), ops: fc.array(op, { minLength: 1, maxLength: 3 }) })
    .map(({ seedFile, ops }) => apply(kind, seedFile, read(seedFile), ops));
}

/**
 * Every targeted mistake once on every seed it applies to: each special path under journal.path and log.file of
 * every daemon seed, a maxInventory ticker typo and a param typo in every daemon and backtest seed (the ticker typo
 * only where it can be told before any network: not on a REST venue, whose markets the daemon reads first). Each
 * must be refused with exit 2 naming the file and key.
 */
export function targetedMutations(read: (file: string) => string): Mutated[] {
  const out: Mutated[] = [];
  const add = (kind: ConfigKind, seedFile: string, what: Special, at: number): void => {
    const doc = parse(read(seedFile)) as unknown;
    const done = special(kind, doc, what, at);
    if (done !== undefined) out.push({ kind, seedFile, text: stringify(done.doc, { lineWidth: 0 }), mutations: [done.what] });
  };
  for (const seed of SEEDS.daemon) for (let at = 0; at < SPECIAL_PATHS.length * PATH_KEYS.length; at++) add('daemon', seed, 'path', at);
  for (const kind of ['daemon', 'backtest'] as const) {
    for (const seed of SEEDS[kind]) {
      const rest = kind === 'daemon' && (parse(read(seed)) as { venue?: { kind?: string } }).venue?.kind === 'rest';
      if (!rest) add(kind, seed, 'ticker', 0);
      add(kind, seed, 'param', 0);
    }
  }
  return out;
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
    if (o.op === 'special') {
      const done = special(kind, doc, o.what, o.at);
      if (done !== undefined) {
        doc = done.doc;
        mutations.push(done.what);
      }
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

/**
 * The targeted mistakes of issue 24 on a parsed config, or undefined where the kind has no such key: a special
 * file as journal.path or log.file (daemon), a typo of a maxInventory ticker (daemon, backtest), a typo of a
 * strategy param (daemon, backtest). `at` picks which.
 */
export function special(kind: ConfigKind, doc: unknown, what: Special, at: number): { doc: unknown; what: string } | undefined {
  if (kind === 'sim' || doc === null || typeof doc !== 'object') return undefined;
  const strategies = (doc as { strategies?: unknown }).strategies;
  if (what === 'path') {
    if (kind !== 'daemon') return undefined;
    const key = PATH_KEYS[at % PATH_KEYS.length]!;
    const value = SPECIAL_PATHS[Math.floor(at / PATH_KEYS.length) % SPECIAL_PATHS.length]!;
    return { doc: setAt(doc, key, value), what: `set ${key.join('.')} = ${value}` };
  }
  if (!Array.isArray(strategies) || strategies.length === 0) return undefined;
  const i = at % strategies.length;
  const s = strategies[i] as { use?: unknown; market?: unknown; params?: unknown; risk?: { maxInventory?: unknown } };
  if (!isPlain(s)) return undefined;
  if (what === 'ticker') {
    const inventory = isPlain(s.risk) && isPlain(s.risk.maxInventory) ? s.risk.maxInventory : {};
    const ticker = Object.keys(inventory)[0] ?? (typeof s.market === 'string' ? s.market : 'BTC_USDT').split('_')[0]!;
    const typo = ticker.slice(0, -1) + (ticker.endsWith('X') ? 'Y' : 'X');
    const { [ticker]: value, ...rest } = inventory;
    return {
      doc: setAt(doc, ['strategies', i, 'risk', 'maxInventory'], { ...rest, [typo]: value ?? 1 }),
      what: `rename strategies.${i}.risk.maxInventory.${ticker} to ${typo}`,
    };
  }
  const params = isPlain(s.params) ? s.params : {};
  const name = Object.keys(params)[at % Math.max(1, Object.keys(params).length)] ?? KNOWN_PARAM[String(s.use)];
  if (name === undefined || name.length < 3) return undefined;
  const typo = name.slice(0, 1) + name.slice(2); // one letter dropped: `spread` -> `sread`
  const { [name]: value, ...rest } = params;
  return { doc: setAt(doc, ['strategies', i, 'params'], { ...rest, [typo]: value ?? 1 }), what: `rename strategies.${i}.params.${name} to ${typo}` };
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A real param of each built-in strategy, for a strategy entry that has no params to misspell. */
const KNOWN_PARAM: Readonly<Record<string, string>> = { 'market-maker': 'spread', grid: 'levels', 'stop-guard': 'trail', twap: 'slices' };

function short(v: unknown): string {
  const s = typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v));
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
  // a missing (or fuzzed) mapping on the way is made a mapping, so a targeted key can always be set
  const obj = isPlain(root) ? root : {};
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
