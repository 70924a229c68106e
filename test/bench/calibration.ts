/**
 * A machine's speed in two fixed loops, so bench figures taken on different machines (or in a shared machine's quiet
 * and busy phases) can be set side by side: a fixed arithmetic loop (integer and float work the JIT cannot remove) and
 * a fixed allocation loop (short-lived objects and arrays, as a replay makes per snapshot: the young generation's
 * collector). Each the best of three, in ms.
 */
export interface Calibration {
  readonly arithmeticMs: number;
  readonly allocationMs: number;
}

function arithmetic(): number {
  let x = 0;
  let f = 1.000001;
  for (let i = 0; i < 50_000_000; i++) {
    x = (x + i * 31) % 1_000_003;
    f = f * 1.0000001 + (x & 7) * 1e-9;
  }
  return x + f;
}

function allocation(): number {
  let kept: Array<{ p: number; q: number[] }> = [];
  let sum = 0;
  for (let i = 0; i < 3_000_000; i++) {
    const o = { p: i, q: [i, i + 1, i + 2] };
    if ((i & 1023) === 0) kept = [];
    kept.push(o);
    sum += o.q[1]!;
  }
  return sum + kept.length;
}

function best(f: () => number): number {
  let ms = Infinity;
  let sink = 0;
  for (let k = 0; k < 3; k++) {
    const t = performance.now();
    sink += f();
    ms = Math.min(ms, performance.now() - t);
  }
  if (sink === 42) process.stdout.write(''); // keeps the loops' results alive
  return ms;
}

export function calibrate(): Calibration {
  return { arithmeticMs: best(arithmetic), allocationMs: best(allocation) };
}

export function calibrationLine(c: Calibration): string {
  return `calibration (fixed loops, best of 3; compare machines with these): arithmetic ${c.arithmeticMs.toFixed(0)} ms, allocation ${c.allocationMs.toFixed(0)} ms`;
}
