import fc from 'fast-check';

/**
 * One fast-check seed for the whole suite (a vitest setupFiles entry, so every test file's runner gets it before the
 * file loads): fixed by default so `npm test` runs the same cases on every machine and every run, and set from
 * FC_SEED to try other cases or to replay a failure. A failing property names the seed and the variable, so the
 * failure replays with `FC_SEED=<seed> npx vitest run <file>` (fast-check's `path` in the message jumps straight to
 * the shrunk counterexample when passed as `{ seed, path }` to that one fc.assert).
 */
export const DEFAULT_FC_SEED = 20261127;

export function suiteSeed(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_FC_SEED;
  const seed = Number(raw);
  // fast-check folds the seed into a 32-bit integer: anything else would silently run other cases than it says
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31) {
    throw new Error(`FC_SEED must be a 32-bit integer (e.g. FC_SEED=${DEFAULT_FC_SEED}), got "${raw}"`);
  }
  return seed;
}

const seed = suiteSeed(process.env.FC_SEED);

fc.configureGlobal({
  seed,
  reporter(details) {
    if (!details.failed) return;
    const replay = `Replay: FC_SEED=${details.seed} npx vitest run <this file> (the suite's fast-check seed is ${seed}, set by FC_SEED)`;
    throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\n\n${replay}`, { cause: details.errorInstance });
  },
});
