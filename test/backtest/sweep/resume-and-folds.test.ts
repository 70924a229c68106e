import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSweepPlan } from '../../../backtest/sweep/sweep-config.js';
import { runSweep, type SweepOutcome } from '../../../backtest/sweep/run-sweep.js';
import { inProcessExecutor, type TrialExecutor } from '../../../backtest/sweep/trial-executor.js';
import { buildSweepReport } from '../../../backtest/sweep/sweep-report.js';
import { GRID_12, SAMPLE_START, writeSweep } from './sweep-fixture.js';

/** The in-process executor, counting the trials it actually runs. */
function counting(): TrialExecutor & { runs: number } {
  const inner = inProcessExecutor();
  const ex = {
    name: 'counting',
    concurrency: 1,
    runs: 0,
    run: (j: Parameters<TrialExecutor['run']>[0]) => ((ex.runs += 1), inner.run(j)),
    close: () => inner.close(),
  };
  return ex;
}

/** Runs the sweep, stopping it (as Ctrl-C does) once `stopAfter` trials finished. */
async function interrupted(file: string, out: string, stopAfter: number): Promise<SweepOutcome> {
  const stop = new AbortController();
  return runSweep({
    plan: loadSweepPlan(file),
    executor: inProcessExecutor(),
    outDir: out,
    signal: stop.signal,
    onTrial: (_r, p) => p.done >= stopAfter && stop.abort(),
  });
}

const trialLines = (out: string): Array<{ index: number; key: string; params: unknown }> =>
  readFileSync(join(out, 'trials.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l));

describe('resumable sweeps', () => {
  it('a stopped grid keeps its finished trials; --resume runs only the rest', async () => {
    const { dir, file } = writeSweep(GRID_12, { windowMs: 20_000 });
    const out = join(dir, 'out');
    const first = await interrupted(file, out, 4);
    expect(first.interrupted).toBe(true);
    expect(trialLines(out)).toHaveLength(4);
    const ex = counting();
    const rest = await runSweep({ plan: loadSweepPlan(file), executor: ex, outDir: out, resume: true });
    expect(rest.interrupted).toBe(false);
    expect(ex.runs).toBe(8);
    expect(new Set(rest.records.map((r) => r.key)).size).toBe(12);
    expect(new Set(trialLines(out).map((r) => r.key)).size).toBe(12);
    expect(trialLines(out)).toHaveLength(12);
  }, 60_000);

  it('a resumed TPE sweep replays the sampler history: the same trials as an uninterrupted one', async () => {
    const tpe = `space:
  strategies[0].params.spread: { from: "0.0002", to: "0.0012", sample: uniform, digits: 5 }
  strategies[0].params.levels: { from: 1, to: 3, step: 1 }
sampler: { kind: tpe, trials: 8, seed: 4, startup: 3 }`;
    const { dir, file } = writeSweep(tpe, { windowMs: 20_000 });
    const whole = await runSweep({ plan: loadSweepPlan(file), executor: inProcessExecutor(), outDir: join(dir, 'whole') });
    await interrupted(file, join(dir, 'cut'), 5);
    const resumed = await runSweep({ plan: loadSweepPlan(file), executor: inProcessExecutor(), outDir: join(dir, 'cut'), resume: true });
    expect(resumed.records.map((r) => r.params)).toEqual(whole.records.map((r) => r.params));
    expect(resumed.records.map((r) => r.figures?.figuresHash)).toEqual(whole.records.map((r) => r.figures?.figuresHash));
  }, 60_000);

  it('refuses to resume the log of another sweep', async () => {
    const { dir, file } = writeSweep(GRID_12, { windowMs: 10_000 });
    await interrupted(file, join(dir, 'out'), 1);
    const other = writeSweep(GRID_12.replace('"0.0002", ', ''), { windowMs: 10_000 });
    await expect(runSweep({ plan: loadSweepPlan(other.file), executor: inProcessExecutor(), outDir: join(dir, 'out'), resume: true })).rejects.toThrow(
      /the log of another sweep/,
    );
  });
});

describe('trial identity', () => {
  it('a trial asked twice (same resolved config, data and window) runs once and is counted once', async () => {
    const { dir, file } = writeSweep(`space:\n  strategies[0].params.spread: { values: ["0.0004", "0.00040", 0.0004] }\nsampler: { kind: grid }`, {
      windowMs: 10_000,
    });
    const ex = counting();
    const outcome = await runSweep({ plan: loadSweepPlan(file), executor: ex, outDir: join(dir, 'out') });
    // "0.00040" is another string, so another config: two distinct trials; 0.0004 (a YAML number) is written as "0.0004".
    expect(outcome.records).toHaveLength(3);
    expect(ex.runs).toBe(2);
    expect(buildSweepReport(outcome).counts.trials).toBe(2);
  }, 60_000);
});

describe('walk-forward folds', () => {
  it('each fold chooses on its in-sample window and is scored on the unseen rest; the report shows both', async () => {
    const { dir, file } = writeSweep(
      `space:\n  strategies[0].params.spread: { values: ["0.0004", "0.0008"] }\nsampler: { kind: grid }\nfolds: 2\ninSample: 0.75`,
      { windowMs: 160_000 },
    );
    const outcome = await runSweep({ plan: loadSweepPlan(file), executor: inProcessExecutor(), outDir: join(dir, 'out') });
    expect(outcome.folds).toHaveLength(2);
    const [f0, f1] = outcome.folds;
    expect(f0!.fold.inSample!.from).toBe(SAMPLE_START);
    expect(f0!.fold.outOfSample!.from).toBe(f0!.fold.inSample!.to + 1);
    expect(f1!.fold.inSample!.from).toBe(f0!.fold.outOfSample!.to + 1);
    expect(f1!.fold.outOfSample!.to).toBe(SAMPLE_START + 160_000);
    for (const f of outcome.folds) {
      expect(f.best?.phase).toBe('search');
      expect(f.oos?.phase).toBe('oos');
      expect(f.oos?.params).toEqual(f.best?.params);
      expect(f.oos?.key).not.toBe(f.best?.key);
    }
    const report = buildSweepReport(outcome);
    expect(report.folds.map((f) => [typeof f.best?.objective, typeof f.outOfSampleResult?.objective])).toEqual([
      ['number', 'number'],
      ['number', 'number'],
    ]);
    expect(report.counts.trials).toBe(4);
  }, 60_000);
});
