/**
 * Small readers for private request fields that are not order rules (those live in src/rules):
 * paging and integers (stp spellings: toStpMode in src/model/order.ts). Each returns a value or a message for the `errors` map.
 */
export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = <T>(message: string): Read<T> => ({ ok: false, message });

/** An optional integer (number or digit string) within [min, max]; absent → `fallback`. */
export function readInt(value: unknown, field: string, min: number, max: number, fallback: number): Read<number>;
export function readInt(value: unknown, field: string, min: number, max: number): Read<number | undefined>;
export function readInt(value: unknown, field: string, min: number, max: number, fallback?: number): Read<number | undefined> {
  if (value === undefined || value === null) return ok(fallback);
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n)) return bad(`The ${field} must be an integer.`);
  if (n < min) return bad(`The ${field} must be at least ${min}.`);
  if (n > max) return bad(`The ${field} may not be greater than ${max}.`);
  return ok(n);
}

/** An optional string field; `undefined` when absent. */
export function readString(value: unknown, field: string): Read<string | undefined> {
  if (value === undefined || value === null) return ok(undefined);
  return typeof value === 'string' ? ok(value) : bad(`The ${field} must be a string.`);
}

/** Collects field messages into the venue's `errors` map. */
export class ErrorsMap {
  readonly errors: Record<string, string[]> = {};

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** Returns the value of a successful read, or records its message under `field`. */
  take<T>(field: string, read: Read<T>): T | undefined {
    if (read.ok) return read.value;
    this.add(field, read.message);
    return undefined;
  }

  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}
