import { describe, expect, it } from 'vitest';
import { parallelLanesByDefault } from '../../backtest/replay/lane-threads.js';

describe('bot backtest lane threads by default', () => {
  it('in parallel from 3 cores, in sequence on 1 or 2 (a cold worker costs more than it gains there)', () => {
    expect([1, 2, 3, 4, 16].map((cores) => parallelLanesByDefault(cores))).toEqual([false, false, true, true, true]);
  });
});
