/**
 * Trial identity. A trial is its resolved backtest config (the base with the trial's values written in, minus
 * the data paths), the sha256 of each data file and the time window: the same three give the same result on any
 * machine, so they hash to the trial's key. The figures' hash is what two runs of a trial are compared by.
 */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level: one text per value, whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface TrialIdentity {
  /** The backtest config without `data` and `out` (they do not change the result). */
  readonly config: Record<string, unknown>;
  readonly dataHashes: readonly string[];
  readonly from?: number | undefined;
  readonly to?: number | undefined;
}

export function trialKey(t: TrialIdentity): string {
  return sha256(canonicalJson({ config: t.config, data: t.dataHashes, from: t.from ?? null, to: t.to ?? null })).slice(0, 32);
}

export function figuresHash(figures: unknown): string {
  return sha256(canonicalJson(figures)).slice(0, 16);
}
