import { describe, expect, it } from 'vitest';
import { OrdersNotifier } from '../../src/engine/orders-notifier.js';

/** Lets every microtask queued so far (and those they queue) run. */
const drained = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('OrdersNotifier', () => {
  it('flushes in the microtask queue where markDirty was first called: after the jobs queued before it, before those queued after', async () => {
    const seen: string[] = [];
    const n = new OrdersNotifier((id) => seen.push(`flush ${id}`));
    queueMicrotask(() => seen.push('microtask before'));
    void Promise.resolve().then(() => seen.push('reaction before'));
    n.markDirty('a');
    queueMicrotask(() => seen.push('microtask after'));
    n.markDirty('b');
    void Promise.resolve().then(() => seen.push('reaction after'));
    n.markDirty('a');
    await drained();
    expect(seen).toEqual(['microtask before', 'reaction before', 'flush a', 'flush b', 'microtask after', 'reaction after']);
  });

  it('sends a strategy marked by a flush in a later flush, queued then', async () => {
    const seen: string[] = [];
    const n: OrdersNotifier = new OrdersNotifier((id) => {
      seen.push(`flush ${id}`);
      if (id === 'a') {
        n.markDirty('b');
        queueMicrotask(() => seen.push('queued by the flush'));
      }
    });
    n.markDirty('a');
    await drained();
    expect(seen).toEqual(['flush a', 'flush b', 'queued by the flush']);
  });
});

describe('OrdersNotifier, several strategies', () => {
  it('sends each strategy marked once per flush, in the order they were first marked, and drops the rest of a flush that threw', async () => {
    const seen: string[] = [];
    let fail = false;
    const n = new OrdersNotifier((id) => {
      seen.push(id);
      if (fail && id === 'b') throw new Error('flush failed');
    });
    for (const id of ['b', 'a', 'b', 'c', 'a', 'b']) n.markDirty(id);
    await drained();
    for (const id of ['c', 'c', 'a']) n.markDirty(id);
    await drained();
    expect(seen).toEqual(['b', 'a', 'c', 'c', 'a']);
    seen.length = 0;
    fail = true;
    const thrown: unknown[] = [];
    const onError = (e: unknown): void => void thrown.push(e);
    process.prependListener('uncaughtException', onError);
    try {
      for (const id of ['a', 'b', 'c']) n.markDirty(id);
      await drained();
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(seen).toEqual(['a', 'b']);
    expect(thrown).toHaveLength(1);
    fail = false;
    n.markDirty('c');
    await drained();
    expect(seen).toEqual(['a', 'b', 'c']);
  });
});
