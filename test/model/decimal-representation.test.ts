import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The Decimals built from parts outside decimal.js (decimal-parts.ts, sim/units.ts) hold the same values as
 * decimal.js's own (units.test.ts, decimal-small.test.ts) and must also be held the way V8 holds decimal.js's own:
 * `e` a small integer and `d` an array of small integers. A double `e` changes the field's representation in every
 * Decimal's map (all of them deprecated mid-run), an array of doubles gives every reader of `d` a second array
 * kind; either costs a fresh process's first replay its optimised code. Invisible to JavaScript: the probe asks V8
 * (natives syntax), in a fresh process of its own (see there why).
 */
const probe = fileURLToPath(new URL('./decimal-representation-probe.ts', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

describe('Decimals built from parts are held as decimal.js holds its own', () => {
  it('fromUnits, decimalOfParts, dadd/dsub/dmul: small-integer sign, exponent and words (fast-check, seeded)', () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', probe], { cwd: repo, encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('ok');
  });
});
