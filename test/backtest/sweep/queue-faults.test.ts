import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSweepPlan } from '../../../backtest/sweep/sweep-config.js';
import { runSweep } from '../../../backtest/sweep/run-sweep.js';
import { queueExecutor } from '../../../backtest/sweep/queue-executor.js';
import { QUEUE_NAME, redisClient } from '../../../backtest/sweep/queue-connection.js';
import { fileSha256 } from '../../../backtest/sweep/data-files.js';
import { hasRedisServer, startRedisServer, type RedisServerHandle } from '../../helpers/redis-server.js';
import { startBotWorker, type BotWorkerProcess } from './bot-worker-process.js';
import { SAMPLE, writeSweep } from './sweep-fixture.js';

const GRID_6 = `space:
  strategies[0].params.spread: { values: ["0.0004", "0.0008"] }
  strategies[0].params.levels: { from: 1, to: 3, step: 1 }
sampler: { kind: grid }`;

describe.skipIf(!hasRedisServer())('BullMQ sweeps when workers die or hold other data (real redis-server, bot worker processes)', () => {
  let redis: RedisServerHandle;
  const workers: BotWorkerProcess[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const c = redisClient(redis.url);
    await c.flushall();
    c.disconnect();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('a worker SIGKILLed mid-trial loses nothing: its trial runs on the other worker, every trial is in the results once', async () => {
    // Short locks so the stalled trial is noticed within seconds; trials of 4 minutes of data (~0.5 s each). Six of
    // them (two spreads, three levels): the victim is killed in its second, the survivor runs the rest; twelve cost
    // ~2 s more of CPU for nothing more checked.
    const fast = ['--queue', redis.url, '--concurrency', '1', '--lock-ms', '1500', '--stalled-check-ms', '500'];
    const [victim, survivor] = await Promise.all([startBotWorker(fast), startBotWorker(fast)]);
    workers.push(victim, survivor);
    const { dir, file } = writeSweep(GRID_6, { windowMs: 240_000 });
    const eventsClient = redisClient(redis.url);
    const events = new QueueEvents(QUEUE_NAME, { connection: eventsClient });
    const stalled: string[] = [];
    events.on('stalled', ({ jobId }) => stalled.push(jobId));
    await events.waitUntilReady();
    const executor = await queueExecutor({ url: redis.url, inFlight: 12 });
    const sweep = runSweep({ plan: loadSweepPlan(file), executor, outDir: join(dir, 'out') });
    // Once the victim finished a trial it takes the next one at once (more are waiting): kill it inside that one.
    await expect.poll(() => victim.log(), { timeout: 60_000, interval: 20 }).toMatch(/done/);
    await new Promise((r) => setTimeout(r, 100));
    victim.child.kill('SIGKILL');
    const outcome = await sweep;
    await executor.close();
    await events.close();
    eventsClient.disconnect();
    expect(stalled.length).toBeGreaterThanOrEqual(1);
    expect(outcome.records.map((r) => r.status)).toEqual(Array(6).fill('ok'));
    expect(new Set(outcome.records.map((r) => r.key)).size).toBe(6);
    const logged = readFileSync(join(dir, 'out', 'trials.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { key: string });
    expect(logged.map((r) => r.key).sort()).toEqual(outcome.records.map((r) => r.key).sort());
  }, 120_000);

  it('a worker whose data file has other bytes fails the job naming the file and both hashes; no result is recorded', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'worker-data-'));
    const other = join(dataDir, basename(SAMPLE));
    // Same name, one byte different inside (a recording that still parses: a price changed).
    const text = gunzipSync(readFileSync(SAMPLE)).toString('utf8').replace('"30003.86"', '"30003.87"');
    writeFileSync(other, gzipSync(text));
    workers.push(await startBotWorker(['--queue', redis.url, '--concurrency', '1', '--data', dataDir]));
    const { dir, file } = writeSweep(`space:\n  strategies[0].params.spread: { values: ["0.0004"] }\nsampler: { kind: grid }`);
    const executor = await queueExecutor({ url: redis.url });
    const outcome = await runSweep({ plan: loadSweepPlan(file), executor, outDir: join(dir, 'out') });
    await executor.close();
    const [rec] = outcome.records;
    const expected = await fileSha256(SAMPLE);
    const actual = await fileSha256(other);
    expect(actual).not.toBe(expected);
    expect(rec!.status).toBe('failed');
    expect(rec!.figures).toBeUndefined();
    expect(rec!.error).toContain(other);
    expect(rec!.error).toContain(expected);
    expect(rec!.error).toContain(actual);
    // The job failed on the queue, no return value stored.
    const c = redisClient(redis.url);
    const q = new Queue(QUEUE_NAME, { connection: c });
    const job = await Job.fromId(q, rec!.key);
    expect(await job!.getState()).toBe('failed');
    expect(job!.returnvalue ?? null).toBeNull();
    await q.close();
    c.disconnect();
    // A copy with the right bytes runs.
    copyFileSync(SAMPLE, other);
    const executor2 = await queueExecutor({ url: redis.url });
    const again = await runSweep({ plan: loadSweepPlan(file), executor: executor2, outDir: join(dir, 'out2') });
    await executor2.close();
    expect(again.records[0]!.status).toBe('ok');
  }, 120_000);
});
