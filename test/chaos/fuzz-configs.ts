import { isLoopback, parseListen } from '../../src/settings/ops-config.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import fc from 'fast-check';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { parseYamlConfig } from '../../src/settings/load-yaml.js';
import { checkChild, checkInProcess, judge, type Outcome } from './config-check.js';
import { CASE_DIR, CASE_FIFO, CASE_FILE, mutatedConfig, type ConfigKind, type Mutated } from './config-mutations.js';

/**
 * The config fuzzer (issue 15): `runs` mutated configs (daemon, backtest, sim), each through the loaders in-process
 * with the CLI's error printer, every `childEvery`-th one also through the real `bin/bot.js` as a child process.
 * Every case must end in exit 2 with one message naming the file and path (or line), or in a valid run; never a
 * stack trace, never another exit code.
 */
export interface FuzzOptions {
  readonly runs: number;
  readonly seed: number;
  /** Run every n-th case also as a child process (0 = none). */
  readonly childEvery: number;
  /** Where the cases are written (a temporary directory). */
  readonly dir: string;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface FuzzFailure {
  readonly index: number;
  readonly how: 'in-process' | 'child';
  readonly problem: string;
  readonly case: Mutated;
}

export interface FuzzReport {
  readonly runs: number;
  readonly children: number;
  /** Cases that were valid configs (in-process exit 0). */
  readonly valid: number;
  /** Cases refused with exit 2. */
  readonly refused: number;
  readonly stackTraces: number;
  readonly crashes: number;
  readonly failures: readonly FuzzFailure[];
  /** Children skipped because the config would reach beyond loopback or write outside the case directory. */
  readonly childrenSkipped: number;
}

const REPO = resolve(import.meta.dirname, '../..');
/** BOT_HTTP_LISTEN: the shipped default.yaml serves its dashboard there; a free port, so children never clash. */
const ENV = {
  BOT_API_KEY: 'fuzz-key-0123456789',
  BOT_API_SECRET: 'fuzz-secret-0123456789',
  BOT_BASE_URL: 'http://127.0.0.1:9',
  BOT_HTTP_LISTEN: '127.0.0.1:0',
};

/** Seeds read with their repository-relative paths made absolute, so a case works from any directory. */
export function readSeed(file: string): string {
  return readFileSync(join(REPO, file), 'utf8')
    .replaceAll('../backtest/sample-data/', `${REPO}/backtest/sample-data/`)
    .replaceAll('file: config/sim.yaml', `file: ${REPO}/config/sim.yaml`);
}

const KINDS: readonly ConfigKind[] = ['daemon', 'daemon', 'backtest', 'sim'];

export async function fuzzConfigs(o: FuzzOptions): Promise<FuzzReport> {
  mkdirSync(o.dir, { recursive: true });
  const arb = fc.constantFrom(...KINDS).chain((kind) => mutatedConfig(kind, readSeed));
  const cases = fc.sample(arb, { numRuns: o.runs, seed: o.seed });
  const failures: FuzzFailure[] = [];
  let valid = 0;
  let refused = 0;
  let stackTraces = 0;
  let crashes = 0;
  let children = 0;
  let childrenSkipped = 0;
  const tally = (index: number, how: FuzzFailure['how'], c: Mutated, outcome: Outcome, file: string): void => {
    const problem = judge(outcome, file);
    if (problem === undefined) return;
    if (problem.startsWith('a stack trace')) stackTraces += 1;
    else crashes += 1;
    failures.push({ index, how, problem, case: c });
  };
  for (const [index, c] of cases.entries()) {
    const caseDir = join(o.dir, `case-${index}`);
    const file = writeCase(c, caseDir);
    const inProcess = await checkInProcess(c.kind, file, caseDir, ENV);
    if (inProcess.exit === 0) valid += 1;
    else if (inProcess.exit === 2) refused += 1;
    tally(index, 'in-process', c, inProcess, file);
    if (o.childEvery > 0 && index % o.childEvery === 0) {
      if (childSafe(c, file, caseDir)) {
        children += 1;
        tally(index, 'child', c, await checkChild(c.kind, file, caseDir, ENV), file);
      } else childrenSkipped += 1;
    }
    o.onProgress?.(index + 1, cases.length);
  }
  return { runs: cases.length, children, valid, refused, stackTraces, crashes, failures, childrenSkipped };
}

/**
 * Writes a case into its own folder as `<kind>.yaml` and returns the file: the special-path placeholders become the
 * folder, a FIFO made there, and the file itself (config-mutations.ts).
 */
export function writeCase(c: Mutated, caseDir: string): string {
  mkdirSync(caseDir, { recursive: true });
  const file = join(caseDir, `${c.kind}.yaml`);
  writeFileSync(file, c.text.replaceAll(CASE_FILE, file).replaceAll(CASE_DIR, caseDir));
  const fifo = CASE_FIFO.replace(CASE_DIR, caseDir);
  if (c.text.includes(CASE_FIFO) && !existsSync(fifo)) execFileSync('mkfifo', [fifo]);
  return file;
}

/**
 * A child may run a valid config for real: only when it cannot reach beyond loopback (a REST venue elsewhere,
 * e.g. a fuzzed baseUrl or `region: main`) and writes nothing outside its case directory (a fuzzed absolute path;
 * /dev/null and /proc paths are refused by the daemon before it touches them, but a child is not trusted with them).
 */
export function childSafe(c: Mutated, file: string, caseDir: string): boolean {
  if (c.kind !== 'daemon') return !/(^|\s)\/(?!work\/)|\.\.\//.test(c.text.replaceAll(REPO, ''));
  let cfg;
  try {
    cfg = parseYamlConfig(readFileSync(file, 'utf8'), DaemonConfigSchema, file, ENV);
  } catch {
    return true; // refused before any network or file
  }
  if (cfg.venue.kind === 'rest') {
    if (cfg.venue.baseUrl === undefined) return false;
    try {
      if (new URL(cfg.venue.baseUrl).hostname !== '127.0.0.1') return false;
    } catch {
      return false;
    }
  }
  // the ops surface and the alerts' webhook stay on loopback
  if (cfg.http !== undefined && !isLoopback(parseListen(cfg.http.listen)?.host ?? '')) return false;
  if (cfg.alerts !== undefined && !isLoopback(new URL(cfg.alerts.webhook).hostname)) return false;
  const paths = [cfg.journal.path, cfg.log.file, cfg.venue.kind === 'sim' ? (cfg.venue.sim as { file?: unknown } | undefined)?.file : undefined];
  return paths.every(
    (p) =>
      p === undefined ||
      (typeof p === 'string' && (p.startsWith(REPO) || p.startsWith(`${caseDir}/`) || p === caseDir || (!isAbsolute(p) && !p.includes('..')))),
  );
}
