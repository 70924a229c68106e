import { InvalidArgumentError } from 'commander';

/**
 * A point in time for --from/--to: an ISO 8601 date-time (`2024-08-08T23:55:00Z`), or a Unix time in
 * milliseconds (13 digits) or seconds (10 digits). Returns Unix ms.
 */
export function parseTimeArg(value: string): number {
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new InvalidArgumentError(`expected an ISO date-time (2024-08-08T23:55:00Z) or Unix time, got "${value}"`);
  return t;
}

/** A duration: `500ms`, `1s`, `2.5s`, `5m`, `1h`, `1d`, or a plain number of milliseconds. Returns ms. */
export function parseDurationArg(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected a duration such as 500ms, 1s, 5m, 1h, got "${value}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
  return Math.round(Number(m[1]) * unit);
}

/** A size: `500000`, `10k`, `5M`, `1G` bytes (powers of 1024 for k/M/G). */
export function parseSizeArg(value: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmMgG])?[bB]?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError(`expected a size such as 10M, got "${value}"`);
  const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').toLowerCase() as 'k'] ?? 1;
  return Math.round(Number(m[1]) * unit);
}
