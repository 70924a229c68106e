/**
 * Garbage answers for the malformed-venue mode of fault injection: what a broken proxy, a half-deployed venue or a
 * flaky network can hand a client instead of the answer. Each kind is built from the real answer (so truncations
 * and type swaps look like the real thing) and a random source (seeded by the caller).
 */
export const GARBAGE_KINDS = ['html', 'truncated', 'wrong-types', 'nan', 'huge', 'error-object', 'empty', 'drip'] as const;
export type GarbageKind = (typeof GARBAGE_KINDS)[number];

export interface GarbageAnswer {
  readonly status: number;
  readonly contentType?: string;
  /** The body as sent (a `drip` sends it a few bytes at a time). */
  readonly text: string;
}

const HTML =
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

/** The garbage of `kind` in place of `realBody` (the JSON the venue would have answered; undefined = empty). */
export function garbageAnswer(kind: GarbageKind, realBody: unknown, random: () => number): GarbageAnswer {
  const real = realBody === undefined ? '' : JSON.stringify(realBody);
  switch (kind) {
    case 'html':
      return { status: 200, contentType: 'text/html; charset=utf-8', text: HTML };
    case 'truncated': {
      const text = real.length > 1 ? real.slice(0, 1 + Math.floor(random() * (real.length - 1))) : '{"';
      return { status: 200, contentType: 'application/json', text };
    }
    case 'wrong-types':
      return { status: 200, contentType: 'application/json', text: JSON.stringify(realBody === undefined ? { result: 'ok' } : swapTypes(realBody, random)) };
    case 'nan': {
      // an answer without a number to spoil (an empty list) becomes a bare NaN, so the kind is always garbage
      const n = { count: 0 };
      const text = JSON.stringify(mapNumbers(realBody ?? {}, () => 'NaN', n));
      return { status: 200, contentType: 'application/json', text: n.count > 0 ? text : 'NaN' };
    }
    case 'huge': {
      // JSON.stringify cannot write 1e400 (it is Infinity to JS): write a marker and replace it in the text
      const n = { count: 0 };
      const text = JSON.stringify(mapNumbers(realBody ?? {}, () => HUGE_MARKER, n)).replaceAll(`"${HUGE_MARKER}"`, '1e400');
      return { status: 200, contentType: 'application/json', text: n.count > 0 ? text : '1e400' };
    }
    case 'error-object':
      return {
        status: 200,
        contentType: 'application/json',
        text:
          random() < 0.5
            ? JSON.stringify({ code: 1, message: 'Internal error', errors: { request: ['Try again later.'] } })
            : JSON.stringify({ success: false, message: 'Service temporarily unavailable', params: [] }),
      };
    case 'empty':
      return { status: 200, text: '' };
    case 'drip':
      return { status: 200, contentType: 'application/json', text: real };
  }
}

const HUGE_MARKER = '__huge__';

/** Every leaf gets a type the schema does not allow (never the venue's own alternative spelling, e.g. a number for a decimal string). */
function swapTypes(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [{ unexpected: true }] : value.map((v) => swapTypes(v, random));
  if (value !== null && typeof value === 'object') {
    if (Object.keys(value).length === 0) return [];
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = swapTypes(v, random);
    return out;
  }
  if (typeof value === 'string') return random() < 0.5 ? { value } : [value];
  if (typeof value === 'number') return random() < 0.5 ? { value } : false;
  if (typeof value === 'boolean') return String(value) + '?';
  return { null: true };
}

/** Numeric leaves (numbers and numeric strings) replaced. */
function mapNumbers(value: unknown, to: () => unknown, n: { count: number }): unknown {
  if (Array.isArray(value)) return value.map((v) => mapNumbers(v, to, n));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapNumbers(v, to, n);
    return out;
  }
  if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))) {
    n.count += 1;
    return to();
  }
  return value;
}
