import fc from 'fast-check';
import { Observable, Subject, config, defer, shareReplay, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { shareLatest } from '../../src/streams/share-latest.js';

/** One step of a script run against a shared stream: the source emits, ends, or a consumer comes or goes. */
type Op =
  | { readonly op: 'next'; readonly value: number }
  | { readonly op: 'complete' }
  | { readonly op: 'error' }
  | { readonly op: 'subscribe'; readonly reentrant: boolean }
  | { readonly op: 'subscribeDropping'; readonly which: number }
  | { readonly op: 'unsubscribe'; readonly which: number }
  | { readonly op: 'newSource' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 99 }).map((value) => ({ op: 'next', value }) as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'complete' } as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'error' } as const) },
  { weight: 3, arbitrary: fc.boolean().map((reentrant) => ({ op: 'subscribe', reentrant }) as const) },
  { weight: 1, arbitrary: fc.nat({ max: 7 }).map((which) => ({ op: 'subscribeDropping', which }) as const) },
  { weight: 2, arbitrary: fc.nat({ max: 7 }).map((which) => ({ op: 'unsubscribe', which }) as const) },
  { weight: 1, arbitrary: fc.constant({ op: 'newSource' } as const) },
);

/**
 * Runs the script against `source.pipe(operator)` (the operator made with the log, for its own lines) and logs everything every consumer sees, and every subscription of
 * the source (the resets). A re-entrant consumer subscribes another one from inside its first value; a dropping one
 * unsubscribes a consumer (maybe itself, maybe one the value has yet to reach) from inside each of its values.
 */
function run(operatorOf: (log: string[]) => MonoTypeOperatorFunction<number>, script: readonly Op[]): string[] {
  const log: string[] = [];
  const operator = operatorOf(log);
  let current = new Subject<number>();
  let sourceSubscriptions = 0;
  const shared = defer(() => {
    sourceSubscriptions += 1;
    log.push(`source subscribed #${sourceSubscriptions}`);
    return current;
  }).pipe(operator);
  const subs: Subscription[] = [];
  let consumers = 0;
  const consume = (reentrant: boolean, drops?: number): void => {
    const id = consumers++;
    let first = true;
    subs.push(
      shared.subscribe({
        next: (v) => {
          log.push(`c${id} next ${v}`);
          if (drops !== undefined) subs[drops % Math.max(1, subs.length)]?.unsubscribe();
          if (reentrant && first) {
            first = false;
            consume(false);
          }
        },
        error: () => log.push(`c${id} error`),
        complete: () => log.push(`c${id} complete`),
      }),
    );
  };
  for (const step of script) {
    if (step.op === 'next') current.next(step.value);
    else if (step.op === 'complete') current.complete();
    else if (step.op === 'error') current.error(new Error('boom'));
    else if (step.op === 'subscribe') consume(step.reentrant);
    else if (step.op === 'subscribeDropping') consume(false, step.which);
    else if (step.op === 'unsubscribe') subs[step.which % Math.max(1, subs.length)]?.unsubscribe();
    else current = new Subject<number>();
  }
  return log;
}

describe('shareLatest (shareReplay({ bufferSize: 1, refCount: true }) without a buffer splice per value)', () => {
  it('property (seeded): every consumer sees what it sees through shareReplay, through resets, re-entrant subscriptions, completion and errors', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (script) => {
        expect(run(() => shareLatest(), script)).toEqual(run(() => shareReplay({ bufferSize: 1, refCount: true }), script));
      }),
      { seed: 27, numRuns: 2000 },
    );
  });

  it("property (seeded): the same with RxJS's deprecated synchronous error handling on (the subject's own next then runs)", () => {
    const warn = console.warn;
    console.warn = () => undefined;
    config.useDeprecatedSynchronousErrorHandling = true;
    try {
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 40 }), (script) => {
          expect(run(() => shareLatest(), script)).toEqual(run(() => shareReplay({ bufferSize: 1, refCount: true }), script));
        }),
        { seed: 27, numRuns: 300 },
      );
    } finally {
      config.useDeprecatedSynchronousErrorHandling = false;
      console.warn = warn;
    }
  });
});

/**
 * A test whose answers depend on its state (the values it let through and how many it was asked), logging each
 * question: as saneBooks' check does (a last sane mid, a jump's confirmations; onHeld told on every poll held).
 */
function admitsOf(log: string[]): () => (value: number) => boolean {
  let made = 0;
  return () => {
    const id = made++;
    let last = -100;
    let asked = 0;
    return (value) => {
      asked += 1;
      const ok = Math.abs(value - last) > 20 || asked % 3 === 0;
      log.push(`test #${id} asked ${value}: ${ok}`);
      if (ok) last = value;
      return ok;
    };
  };
}

/** The same test as an operator of its own: one state per subscription. */
function filterBy(admits: () => (value: number) => boolean): MonoTypeOperatorFunction<number> {
  return (source) =>
    new Observable<number>((subscriber) => {
      const test = admits();
      return source.subscribe({
        next: (value) => {
          if (test(value)) subscriber.next(value);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}

describe('shareLatest(admits): the test inside the shared subject', () => {
  it('property (seeded): exactly the test as an operator before shareLatest, through resets, re-entrant subscriptions, completion and errors', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (script) => {
        const fused = run((log: string[]) => shareLatest(admitsOf(log)), script);
        const composed = run((log: string[]) => (source: Observable<number>) => source.pipe(filterBy(admitsOf(log)), shareLatest()), script);
        expect(fused).toEqual(composed);
      }),
      { seed: 27, numRuns: 2000 },
    );
  });
});
