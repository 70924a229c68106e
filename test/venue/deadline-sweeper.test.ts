import { describe, expect, it } from 'vitest';
import { DeadlineSweeper } from '../../src/venue/deadline-sweeper.js';
import { waitUntil } from '../helpers/wait-until.js';

class Call {
  cancelled = 0;
  cancel(): void {
    this.cancelled += 1;
  }
}

describe('DeadlineSweeper', () => {
  it('calls off exactly the requests past their deadline, once, and reports them late on settle', () => {
    let t = 0;
    const sweeper = new DeadlineSweeper(100, () => t);
    const a = new Call();
    const b = new Call();
    const c = new Call();
    sweeper.watch(a);
    t = 30;
    sweeper.watch(b);
    t = 60;
    sweeper.watch(c);
    expect(sweeper.settle(c)).toBe(false); // answered in time
    t = 100;
    sweeper.sweep();
    expect([a.cancelled, b.cancelled]).toEqual([1, 0]);
    t = 129;
    sweeper.sweep();
    expect(b.cancelled).toBe(0);
    t = 130;
    sweeper.sweep();
    sweeper.sweep();
    expect([a.cancelled, b.cancelled, c.cancelled]).toEqual([1, 1, 0]);
    expect(sweeper.settle(a)).toBe(true);
    expect(sweeper.settle(b)).toBe(true);
    sweeper.stop();
  });

  it('ticks at a tenth of the timeout, within 5..250 ms', () => {
    expect(new DeadlineSweeper(10_000).tickMs).toBe(250);
    expect(new DeadlineSweeper(100).tickMs).toBe(10);
    expect(new DeadlineSweeper(20).tickMs).toBe(5);
  });

  it('fires on its own timer and stops once nothing is in flight', async () => {
    const sweeper = new DeadlineSweeper(20);
    const late = new Call();
    sweeper.watch(late);
    await waitUntil('the sweeper to call the late request off', () => late.cancelled > 0);
    expect(late.cancelled).toBe(1);
    expect(sweeper.settle(late)).toBe(true);
    expect((sweeper as unknown as { timer: unknown }).timer).toBeUndefined();
  });
});
