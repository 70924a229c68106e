import fc from 'fast-check';
import { Observable, Subject, concatMap, from, map, withLatestFrom, type OperatorFunction } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { decideEach } from '../../strategies/market-maker/decide-each.js';

type Op =
  | { readonly to: 's' | 'a' | 'b'; readonly op: 'next'; readonly value: number }
  | { readonly to: 's' | 'a' | 'b'; readonly op: 'error' | 'complete' }
  | { readonly to: 'out'; readonly op: 'unsubscribe' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.tuple(fc.constantFrom('s', 'a', 'b'), fc.integer({ min: 0, max: 9 })).map(([to, value]) => ({ to, op: 'next', value }) as const),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('s', 'a', 'b'), fc.constantFrom('error', 'complete')).map(([to, op]) => ({ to, op }) as const) },
  { weight: 1, arbitrary: fc.constant({ to: 'out', op: 'unsubscribe' } as const) },
);

/**
 * A decision of 0 to 2 items that throws for one source value; an item 7 makes the consumer push the source again
 * from inside the emission (a re-entrant value), once.
 */
function runWith(
  make: (a$: Observable<number>, b$: Observable<number>, decide: (s: number, a: number, b: number) => readonly string[]) => OperatorFunction<number, string>,
  script: readonly Op[],
): string[] {
  const log: string[] = [];
  const subjects = { s: new Subject<number>(), a: new Subject<number>(), b: new Subject<number>() };
  const decide = (s: number, a: number, b: number): readonly string[] => {
    if (s === 3) throw new Error(`decide ${s}`);
    return Array.from({ length: (s + a + b) % 3 }, (_, i) => `${s}.${a}.${b}.${i}`);
  };
  let reentered = false;
  const sub = subjects.s.pipe(make(subjects.a, subjects.b, decide)).subscribe({
    next: (v) => {
      log.push(`next ${v}`);
      if (v.endsWith('.1') && !reentered) {
        reentered = true;
        subjects.s.next(5);
      }
    },
    error: (e: unknown) => log.push(`error ${(e as Error).message}`),
    complete: () => log.push('complete'),
  });
  for (const step of script) {
    if (step.to === 'out') sub.unsubscribe();
    else if (step.op === 'next') subjects[step.to].next(step.value);
    else if (step.op === 'error') subjects[step.to].error(new Error(step.to));
    else subjects[step.to].complete();
  }
  log.push(`observed ${subjects.s.observed} ${subjects.a.observed} ${subjects.b.observed}`);
  return log;
}

const asBefore =
  (a$: Observable<number>, b$: Observable<number>, decide: (s: number, a: number, b: number) => readonly string[]): OperatorFunction<number, string> =>
  (source) =>
    source.pipe(
      withLatestFrom(a$, b$),
      map(([s, a, b]) => decide(s, a, b)),
      concatMap((list) => from(list)),
    );

describe("the market maker's decideEach (withLatestFrom, map and emitting each element, as one operator)", () => {
  it('property (seeded): emits, errors, completes and lets go of its inputs as withLatestFrom + map + concatMap(from) do', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (script) => {
        expect(runWith(decideEach, script)).toEqual(runWith(asBefore, script));
      }),
      { seed: 27, numRuns: 3000 },
    );
  });
});
