import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSweepPlan } from '../../../backtest/sweep/sweep-config.js';
import { runSweep, type SweepOutcome } from '../../../backtest/sweep/run-sweep.js';
import { inProcessExecutor, type TrialExecutor } from '../../../backtest/sweep/trial-executor.js';
import { trialPool } from '../../../backtest/sweep/trial-pool.js';
import { queueExecutor } from '../../../backtest/sweep/queue-executor.js';
import { hasRedisServer, startRedisServer, type RedisServerHandle } from '../../helpers/redis-server.js';
import { startBotWorker, type BotWorkerProcess } from './bot-worker-process.js';
import { GRID_12, writeSweep } from './sweep-fixture.js';

/** Trial key → hash of its figures, for every trial of a sweep. */
function figureHashes(o: SweepOutcome): Map<string, string> {
  return new Map(o.records.map((r) => [r.key, r.figures?.figuresHash ?? `failed: ${r.error}`]));
}

async function sweepOn(executor: TrialExecutor, file: string, out: string): Promise<SweepOutcome> {
  try {
    return await runSweep({ plan: loadSweepPlan(file), executor, outDir: out });
  } finally {
    await executor.close();
  }
}

describe('the same 12-trial grid in-process, on the worker pool and on BullMQ', () => {
  const { dir, file } = writeSweep(GRID_12);
  let inProcess: Map<string, string>;

  beforeAll(async () => {
    inProcess = figureHashes(await sweepOn(inProcessExecutor(), file, `${dir}/in-process`));
  }, 120_000);

  it('runs 12 distinct trials, all ok, with trades in them', () => {
    expect(inProcess.size).toBe(12);
    expect([...inProcess.values()].every((h) => !h.startsWith('failed'))).toBe(true);
    // Different parameters give different figures (the grid is not degenerate): a real comparison below.
    expect(new Set(inProcess.values()).size).toBeGreaterThan(6);
  });

  it('the worker pool gives identical figures per trial', async () => {
    const pool = figureHashes(await sweepOn(trialPool({ workers: 2 }), file, `${dir}/pool`));
    expect(pool).toEqual(inProcess);
  }, 120_000);

  describe.skipIf(!hasRedisServer())('BullMQ with two `bot worker` processes (real redis-server)', () => {
    let redis: RedisServerHandle;
    const workers: BotWorkerProcess[] = [];
    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await Promise.all(workers.map((w) => w.stop()));
      await redis?.stop();
    });

    it('gives identical figures per trial, each trial once', async () => {
      workers.push(
        ...(await Promise.all([startBotWorker(['--queue', redis.url, '--concurrency', '1']), startBotWorker(['--queue', redis.url, '--concurrency', '1'])])),
      );
      const outcome = await sweepOn(await queueExecutor({ url: redis.url, inFlight: 4 }), file, `${dir}/queue`);
      expect(figureHashes(outcome)).toEqual(inProcess);
      expect(outcome.records).toHaveLength(12);
      // Both workers took part.
      for (const w of workers) expect(w.log()).toMatch(/trial [0-9a-f]+ done/);
    }, 120_000);
  });
});
