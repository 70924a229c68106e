import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../../src/model/decimal.js';
import { loadSweepPlan } from '../../../backtest/sweep/sweep-config.js';
import { parseParamPath, pathProblem, withValues } from '../../../backtest/sweep/config-path.js';
import { rangeDimension, valueAt } from '../../../backtest/sweep/param-space.js';
import { gridSampler } from '../../../backtest/sweep/grid-sampler.js';
import { trialConfig } from '../../../backtest/sweep/run-sweep.js';
import { trialKey } from '../../../backtest/sweep/trial-key.js';
import { BacktestConfigSchema } from '../../../backtest/backtest-config.js';
import { GRID_12, writeSweep } from './sweep-fixture.js';

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

describe('sweep file', () => {
  it('resolves paths into the base config and writes decimals as exact strings', () => {
    const { file } = writeSweep(GRID_12);
    const plan = loadSweepPlan(file);
    const grid = gridSampler(plan.dims);
    expect(grid.total).toBe(12);
    const all = Array.from({ length: 12 }, (_, i) => grid.ask(i, []));
    expect(new Set(all.map((p) => JSON.stringify(p))).size).toBe(12);
    const config = trialConfig(plan, all[5]!) as { strategies: [{ params: Record<string, unknown> }] };
    expect(config.strategies[0].params['spread']).toBe('0.0004');
    expect(config.strategies[0].params['levels']).toBe(3);
    expect(config.strategies[0].params['size']).toBe('0.01'); // the base's other params stay
  });

  it('a wrong value names the file, line, path and expectation', () => {
    const { file } = writeSweep(`${GRID_12.replace('kind: grid', 'kind: annealing')}`);
    expect(errorOf(() => loadSweepPlan(file))).toMatch(
      new RegExp(`${file.replace(/[/.]/g, '\\$&')}:\\d+:\\d+: sampler.kind: expected "grid" \\| "random" \\| "tpe", got "annealing"`),
    );
  });

  it('a path the base config does not have, a sampled range in a grid, a random sampler without trials: each named', () => {
    const { file } = writeSweep(`space:
  strategies[1].params.spread: { values: ["0.0002"] }
  strategies[0].params.size: { from: "0.005", to: "0.02", sample: log }
sampler: { kind: grid }`);
    const msg = errorOf(() => loadSweepPlan(file));
    expect(msg).toContain(`${file}: space.strategies[1].params.spread: strategies[1] is not in the base config`);
    const plan2 = writeSweep(`space:\n  strategies[0].params.size: { from: "0.005", to: "0.02", sample: log }\nsampler: { kind: random }`);
    expect(errorOf(() => loadSweepPlan(plan2.file))).toContain('sampler.trials: missing');
    const grid = writeSweep(`space:\n  strategies[0].params.size: { from: "0.005", to: "0.02", sample: log }\nsampler: { kind: grid }`);
    expect(() => gridSampler(loadSweepPlan(grid.file).dims)).toThrow(/grid sampler needs values or a range with a step/);
  });

  it('constraints and objective are checked against the lanes the base config runs', () => {
    const { dir, file } = writeSweep(`${GRID_12}\nobjective: { figure: optimistic.tradingPnl }`);
    writeFileSync(join(dir, 'backtest.yaml'), `${readFileSync(join(dir, 'backtest.yaml'), 'utf8')}fills: [pessimistic]\n`);
    expect(errorOf(() => loadSweepPlan(file))).toContain('objective uses the optimistic lane');
  });
});

describe('param paths', () => {
  it('parse names and indices, and set a copy', () => {
    expect(parseParamPath('strategies[0].params.spread')).toEqual(['strategies', 0, 'params', 'spread']);
    const base = { strategies: [{ params: { spread: '1' } }], polling: { bookMs: 1000 } };
    expect(pathProblem(base, ['strategies', 0, 'params', 'size'])).toBeUndefined();
    expect(pathProblem(base, ['latency', 'requestMs'])).toContain('latency is not in the base config');
    const copy = withValues(base, [
      [['strategies', 0, 'params', 'spread'], '2'],
      [['polling', 'bookMs'], 500],
    ]);
    expect(copy).toEqual({ strategies: [{ params: { spread: '2' } }], polling: { bookMs: 500 } });
    expect(base.strategies[0]!.params.spread).toBe('1');
  });
});

describe('ranges', () => {
  it('a decimal step range is exact (no float drift)', () => {
    const d = rangeDimension('x', ['x'], { from: '0.0001', to: '0.001', step: '0.0001' });
    expect(d.kind === 'list' && d.values).toEqual(['0.0001', '0.0002', '0.0003', '0.0004', '0.0005', '0.0006', '0.0007', '0.0008', '0.0009', '0.001']);
  });

  it('sampled values stay inside the range, with at most `digits` decimals; integers stay integers', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.boolean(), (u, log) => {
        const d = rangeDimension('x', ['x'], { from: '0.0005', to: '0.02', sample: log ? 'log' : 'uniform', digits: 5 });
        const v = D(valueAt(d, u) as string);
        expect(v.gte('0.0005') && v.lte('0.02')).toBe(true);
        expect(v.decimalPlaces()).toBeLessThanOrEqual(5);
        const i = valueAt(rangeDimension('n', ['n'], { from: 1, to: 9, sample: log ? 'log' : 'uniform' }), u);
        expect(Number.isInteger(i) && (i as number) >= 1 && (i as number) <= 9).toBe(true);
      }),
    );
  });
});

describe('trial key', () => {
  it('depends on the resolved config, the data bytes and the window, not on key order', () => {
    const a = { strategies: [{ id: 'mm', params: { spread: '0.1', size: '1' } }], latency: { requestMs: 25 } };
    const b = { latency: { requestMs: 25 }, strategies: [{ params: { size: '1', spread: '0.1' }, id: 'mm' }] };
    const k = trialKey({ config: a, dataHashes: ['aa'], from: 1, to: 2 });
    expect(trialKey({ config: b, dataHashes: ['aa'], from: 1, to: 2 })).toBe(k);
    expect(trialKey({ config: a, dataHashes: ['ab'], from: 1, to: 2 })).not.toBe(k);
    expect(trialKey({ config: a, dataHashes: ['aa'], from: 1, to: 3 })).not.toBe(k);
    expect(trialKey({ config: { ...a, latency: { requestMs: 26 } }, dataHashes: ['aa'], from: 1, to: 2 })).not.toBe(k);
  });

  it('fillModel: replaces the base config’s in every trial (the block bot parity --fit writes); a bad share is named', () => {
    const plain = loadSweepPlan(writeSweep(GRID_12).file);
    expect(plain.base.fillModel).toEqual({ queueAhead: 1, decreaseTrades: 1 });
    expect(trialConfig(plain, {})['fillModel']).toBeUndefined(); // trial keys of sweeps without it are unchanged
    const { file } = writeSweep(`${GRID_12}\nfillModel: { queueAhead: 0.5, decreaseTrades: 0 }`);
    const plan = loadSweepPlan(file);
    expect(plan.base.fillModel).toEqual({ queueAhead: 0.5, decreaseTrades: 0 });
    expect(trialConfig(plan, {})['fillModel']).toEqual({ queueAhead: 0.5, decreaseTrades: 0 });
    // the space can search it too
    const searched = loadSweepPlan(writeSweep('space:\n  fillModel.decreaseTrades: { values: [0, 0.5, 1] }\nfillModel: { queueAhead: 1 }').file);
    const trial = trialConfig(searched, { 'fillModel.decreaseTrades': 0.5 });
    expect(BacktestConfigSchema.parse(trial).fillModel).toEqual({ queueAhead: 1, decreaseTrades: 0.5 });
    const bad = writeSweep(`${GRID_12}\nfillModel: { queueAhead: 2 }`);
    expect(errorOf(() => loadSweepPlan(bad.file))).toMatch(/fillModel\.queueAhead: .*between 0 and 1/);
  });
});
