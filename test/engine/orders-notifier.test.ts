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
