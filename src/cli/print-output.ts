import { Decimal, fmt } from '../model/decimal.js';

/** Decimals as canonical strings (never exponent form), everything else as is. */
export function toPlain(value: unknown): unknown {
  if (value instanceof Decimal) return fmt(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  return value;
}

/** `--json`: the parsed response as JSON; otherwise the table text. One write, to stdout. */
export function printResult(value: unknown, json: boolean | undefined, table: () => string): void {
  process.stdout.write(json === true ? `${JSON.stringify(toPlain(value), null, 2)}\n` : `${table()}\n`);
}

type Cell = string | number | boolean | Decimal | null | undefined;

/** A plain aligned text table; numbers right-aligned. Empty rows give "(none)". */
export function formatTable(columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  if (rows.length === 0) return '(none)';
  const text = rows.map((r) => r.map((c) => (c instanceof Decimal ? fmt(c) : c === null || c === undefined ? '-' : String(c))));
  const widths = columns.map((h, i) => Math.max(h.length, ...text.map((r) => (r[i] ?? '').length)));
  const numeric = columns.map((_, i) => rows.every((r) => r[i] instanceof Decimal || typeof r[i] === 'number'));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n');
}

/** Key: value lines for one record. */
export function formatRecord(entries: readonly (readonly [string, Cell])[]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${k.padEnd(width)}  ${v instanceof Decimal ? fmt(v) : v === null || v === undefined ? '-' : String(v)}`).join('\n');
}
