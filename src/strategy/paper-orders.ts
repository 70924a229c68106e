import { BehaviorSubject, type Observable } from 'rxjs';
import { D, type DecimalInput } from '../model/decimal.js';
import type { Clock, OwnOrder } from './context.js';
import type { Intent } from './intents.js';

/**
 * A stand-in for the engine's order tracking in strategy tests: every intent passed to `apply` takes effect at once
 * (a place adds an `open` order with id `paper-<n>`, a cancel removes it) and `orders$` emits the new set
 * synchronously, as the engine registers a pending order before the strategy sees the next event. `fill` simulates a
 * (partial) fill. No rules, no risk, no venue: for checking a strategy's decisions, not the engine.
 *
 * ```ts
 * const paper = createPaperOrders(ctxClock);
 * const ctx = createTestContext({ ..., orders$: paper.orders$ });
 * const intents$ = strategy.create(ctx).pipe(tap((i) => paper.apply(i)));
 * ```
 */
export interface PaperOrders {
  /** Current live orders; replays the latest to new subscribers (starts with `[]`). */
  readonly orders$: Observable<readonly OwnOrder[]>;
  /** Current live orders. */
  readonly orders: readonly OwnOrder[];
  apply(intent: Intent): void;
  /** Fills `amount` (default: all that is left) of an order; a fully filled order leaves the set. */
  fill(clientOrderId: string, amount?: DecimalInput): void;
}

export function createPaperOrders(clock: Clock = { now: () => 0 }, market = 'BTC_USDT'): PaperOrders {
  const subject = new BehaviorSubject<readonly OwnOrder[]>([]);
  let counter = 0;
  const set = (orders: readonly OwnOrder[]) => subject.next(orders);
  return {
    orders$: subject.asObservable(),
    get orders() {
      return subject.value;
    },
    apply(intent) {
      const now = clock.now();
      switch (intent.kind) {
        case 'place-limit':
        case 'place-stop-limit': {
          counter += 1;
          const order: OwnOrder = {
            clientOrderId: `paper-${counter}`,
            market,
            side: intent.side,
            kind: intent.kind === 'place-limit' ? 'limit' : 'stop-limit',
            price: intent.price,
            ...(intent.kind === 'place-stop-limit' ? { activationPrice: intent.activationPrice } : {}),
            amount: intent.amount,
            left: intent.amount,
            state: 'open',
            ...(intent.tag === undefined ? {} : { tag: intent.tag }),
            updatedAt: now,
          };
          set([...subject.value, order]);
          return;
        }
        case 'cancel':
          set(subject.value.filter((o) => o.clientOrderId !== intent.clientOrderId));
          return;
        case 'cancel-all':
          set([]);
          return;
      }
    },
    fill(clientOrderId, amount) {
      const now = clock.now();
      set(
        subject.value.flatMap((o) => {
          if (o.clientOrderId !== clientOrderId) return [o];
          const left = o.left.minus(D(amount ?? o.left));
          return left.lte(0) ? [] : [{ ...o, left, state: 'partially-filled' as const, updatedAt: now }];
        }),
      );
    },
  };
}
