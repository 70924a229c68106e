/**
 * One dimension of a search space and how its values are made. Three forms:
 *   values: [a, b, c]                       a list (any YAML scalars)
 *   { from, to, step }                      a range with a step (both ends included)
 *   { from, to, sample: uniform | log }     a range to sample; decimals rounded to `digits` places
 * A range is of integers when its bounds (and step) are written as integers and no `digits` is given, else of
 * decimals. Decimals are
 * computed with Decimal and handed to the config as strings, so `0.0003` is exactly 0.0003.
 *
 * Samplers work on the unit interval: `valueAt(dim, u)` maps u in [0, 1) to a value (a list and a stepped range
 * pick the floor(u·n)-th value; a sampled range interpolates, logarithmically for `log`), so grid, random and
 * TPE share one definition of the space.
 */
import { D, Decimal } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import type { PathKey } from './config-path.js';

export type ParamValue = string | number | boolean;

export type Dimension =
  | { readonly path: string; readonly keys: readonly PathKey[]; readonly kind: 'list'; readonly values: readonly ParamValue[] }
  | {
      readonly path: string;
      readonly keys: readonly PathKey[];
      readonly kind: 'sampled';
      readonly integer: boolean;
      readonly from: Decimal;
      readonly to: Decimal;
      readonly log: boolean;
      readonly digits: number;
    };

export interface RangeSpec {
  readonly from: string | number;
  readonly to: string | number;
  readonly step?: string | number | undefined;
  readonly sample?: 'uniform' | 'log' | undefined;
  readonly digits?: number | undefined;
}

const isIntText = (v: string | number): boolean => (typeof v === 'number' ? Number.isInteger(v) : /^-?\d+$/.test(v.trim()));
const decimalPlaces = (d: Decimal): number => Math.max(0, d.decimalPlaces());

/** A YAML scalar as it goes into the config: non-integer numbers become exact decimal strings. */
export function configValue(v: ParamValue): ParamValue {
  return typeof v === 'number' && !Number.isInteger(v) ? String(v) : v;
}

export function listDimension(path: string, keys: readonly PathKey[], values: readonly ParamValue[]): Dimension {
  return { path, keys, kind: 'list', values: values.map(configValue) };
}

/** A range: stepped ranges become lists (enumerable by the grid), sampled ones stay continuous. */
export function rangeDimension(path: string, keys: readonly PathKey[], r: RangeSpec): Dimension {
  const from = D(r.from);
  const to = D(r.to);
  if (to.lt(from)) throw new ConfigError(`space '${path}': to (${to.toFixed()}) is below from (${from.toFixed()})`);
  // `digits` asks for decimals even between integer bounds (from: 0, to: 1, digits: 4).
  const integer = isIntText(r.from) && isIntText(r.to) && (r.step === undefined || isIntText(r.step)) && r.digits === undefined;
  if (r.step !== undefined) {
    const step = D(r.step);
    if (step.lte(0)) throw new ConfigError(`space '${path}': step must be greater than 0`);
    const n = to.minus(from).div(step).floor().toNumber() + 1;
    if (n > 100_000) throw new ConfigError(`space '${path}': ${n} values in the range; use a larger step or sample: uniform`);
    const values: ParamValue[] = [];
    for (let i = 0; i < n; i++) {
      const v = from.plus(step.times(i));
      values.push(integer ? v.toNumber() : v.toFixed());
    }
    return { path, keys, kind: 'list', values };
  }
  const log = r.sample === 'log';
  if (log && from.lte(0)) throw new ConfigError(`space '${path}': sample: log needs from > 0`);
  const digits = r.digits ?? (integer ? 0 : Math.max(decimalPlaces(from), decimalPlaces(to)) + 2);
  return { path, keys, kind: 'sampled', integer, from, to, log, digits };
}

/** Number of values a grid walks (sampled dimensions have none). */
export function gridSize(dim: Dimension): number | undefined {
  return dim.kind === 'list' ? dim.values.length : undefined;
}

/** The value at unit coordinate u in [0, 1). Deterministic: the same u always gives the same value. */
export function valueAt(dim: Dimension, u: number): ParamValue {
  const x = Math.min(Math.max(u, 0), 1 - Number.EPSILON);
  if (dim.kind === 'list') return dim.values[Math.floor(x * dim.values.length)]!;
  // u is a float; it only chooses a point, the value itself is a Decimal rounded to `digits` places.
  const ux = new Decimal(x.toFixed(15));
  let v: Decimal;
  if (dim.log) {
    const lnA = dim.from.ln();
    v = lnA.plus(dim.to.ln().minus(lnA).times(ux)).exp();
  } else {
    v = dim.from.plus(dim.to.minus(dim.from).times(ux));
  }
  if (dim.integer) {
    // Inclusive of `to`: stretch over n+1 integers.
    const span = dim.to.minus(dim.from).plus(1);
    const i = dim.log ? v.floor() : dim.from.plus(span.times(ux).floor());
    return Decimal.min(Decimal.max(i, dim.from), dim.to).toNumber();
  }
  v = Decimal.min(Decimal.max(v.toDecimalPlaces(dim.digits, Decimal.ROUND_HALF_UP), dim.from), dim.to);
  return v.toFixed();
}

/** The unit coordinate of a value (inverse of valueAt, at the middle of a list item's cell). */
export function unitOf(dim: Dimension, value: ParamValue): number {
  if (dim.kind === 'list') {
    const i = dim.values.findIndex((v) => String(v) === String(value));
    return i < 0 ? 0.5 : (i + 0.5) / dim.values.length;
  }
  const v = D(value as string | number);
  if (dim.to.eq(dim.from)) return 0.5;
  if (dim.log) return v.ln().minus(dim.from.ln()).div(dim.to.ln().minus(dim.from.ln())).toNumber();
  return v.minus(dim.from).div(dim.to.minus(dim.from)).toNumber();
}
