import { describe, expect, it } from 'vitest';
import { queueExecutor } from '../../../backtest/sweep/queue-executor.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';

describe('a sweep queue that cannot be reached', () => {
  it('fails within the timeout naming the URL and the connection error (exit 3), leaving no retry running', async () => {
    const error = await queueExecutor({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string },
    );
    expect(error?.message).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1 within 0\.5 s: connect ECONNREFUSED/);
    expect(error?.code).toBe('ERR_QUEUE_UNAVAILABLE');
    expect(exitCodeFor(error)).toBe(3);
  });

  it('refuses a URL that is not redis://', async () => {
    await expect(queueExecutor({ url: 'http://127.0.0.1:6379' })).rejects.toThrow(/expected redis:\/\/HOST:PORT/);
  });
});
