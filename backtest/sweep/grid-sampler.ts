/** Grid search: every combination of the dimensions' values, the last dimension varying fastest. */
import { ConfigError } from '../../src/model/errors.js';
import type { Dimension } from './param-space.js';
import type { Params, Sampler } from './sampler.js';

export function gridSampler(dims: readonly Dimension[]): Sampler {
  for (const d of dims) {
    if (d.kind !== 'list') throw new ConfigError(`space '${d.path}': the grid sampler needs values or a range with a step (got a sampled range)`);
  }
  const sizes = dims.map((d) => (d.kind === 'list' ? d.values.length : 1));
  const total = sizes.reduce((a, b) => a * b, 1);
  return {
    kind: 'grid',
    total,
    ask(index: number): Params {
      const picks: number[] = new Array<number>(dims.length);
      let rest = index;
      for (let k = dims.length - 1; k >= 0; k--) {
        picks[k] = rest % sizes[k]!;
        rest = Math.floor(rest / sizes[k]!);
      }
      return Object.fromEntries(dims.map((d, k) => [d.path, d.kind === 'list' ? d.values[picks[k]!]! : '']));
    },
  };
}
