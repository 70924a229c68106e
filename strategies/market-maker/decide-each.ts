import { Observable, type OperatorFunction } from 'rxjs';

/**
 * `withLatestFrom(a$, b$)`, then `map(([s, a, b]) => decide(s, a, b))`, then each element of the list emitted in order,
 * as one operator: the market maker's path for every book snapshot, without the `[s, a, b]` array withLatestFrom
 * spreads per value and two operator hops. As those three: `a$` and `b$` are subscribed before the source and a source
 * value before both have emitted is dropped; an error of any of the three, or a throw of `decide`, errors the result;
 * the source's completion completes it, the others' do not. A list decided while another is still being emitted (a
 * value arriving re-entrantly) waits for it, as `concatMap((list) => from(list))` would.
 */
export function decideEach<S, A, B, T>(a$: Observable<A>, b$: Observable<B>, decide: (s: S, a: A, b: B) => readonly T[]): OperatorFunction<S, T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let a: A | undefined;
      let b: B | undefined;
      let hasA = false;
      let hasB = false;
      let queue: (readonly T[])[] | undefined;
      const emit = (list: readonly T[]): void => {
        // nothing to emit, queued or not (the usual snapshot: the quotes stand): no queue made
        if (list.length === 0) return;
        if (queue !== undefined) {
          queue.push(list);
          return;
        }
        queue = [list];
        for (let k = 0; k < queue.length; k++) {
          for (const item of queue[k]!) {
            if (subscriber.closed) {
              queue = undefined;
              return;
            }
            subscriber.next(item);
          }
        }
        queue = undefined;
      };
      const fail = (error: unknown): void => subscriber.error(error);
      subscriber.add(
        a$.subscribe({
          next: (v) => {
            a = v;
            hasA = true;
          },
          error: fail,
        }),
      );
      subscriber.add(
        b$.subscribe({
          next: (v) => {
            b = v;
            hasB = true;
          },
          error: fail,
        }),
      );
      subscriber.add(
        source.subscribe({
          next: (s) => {
            if (!hasA || !hasB) return;
            let list: readonly T[];
            try {
              list = decide(s, a as A, b as B);
            } catch (error) {
              subscriber.error(error);
              return;
            }
            emit(list);
          },
          error: fail,
          complete: () => subscriber.complete(),
        }),
      );
    });
}
