import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type SimHandle } from '../../src/sim/start-sim.js';
import { daemonChildren, journalAt, restDaemonYaml, until } from '../helpers/daemon-child.js';
import { canMountTmpfs, mountTinyDisk } from '../helpers/tiny-disk.js';

/**
 * #24 items 1 and 2, on real daemon processes against the sim: a strategy that fails stops alone and its orders are
 * cancelled; any other failure (an uncaught exception outside every strategy, a journal on a full disk) ends in the
 * one emergency stop - every order cancelled, one line naming the cause, exit 4.
 */
const { dir, spawnDaemon } = daemonChildren('daemon-failures');
const fixtures = resolve(fileURLToPath(new URL('./fixtures/', import.meta.url)));
let sim: SimHandle;
let account: SimHandle['accounts'][number];
let accountId: string;

beforeAll(async () => {
  sim = await startSim({ port: 0, host: '127.0.0.1' });
  account = sim.accounts.find((a) => !a.partner)!;
  accountId = sim.exchange.accountByKey(account.apiKey)!.id;
});
afterAll(async () => sim.close());

function config(name: string, strategies: string[], journal: string): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    restDaemonYaml({
      baseUrl: sim.baseUrl,
      journal,
      strategies,
      polling: '{ bookMs: 250, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000 }',
      log: '{ level: warn }',
    }),
  );
  return path;
}

const env = () => ({ KEY: account.apiKey, SECRET: account.apiSecret });
const openOf = (prefix: string) => sim.exchange.openOrders(accountId).filter((o) => o.clientOrderId.startsWith(prefix));
const failing = (id: string, file: string) =>
  `  - { id: ${id}, use: ${join(fixtures, file)}, market: BTC_USDT, params: { failAfterBooks: 8 }, risk: { unlimited: true } }`;

describe('a daemon whose strategies fail', () => {
  it('stops each failing strategy alone and cancels its orders (a throw in a callback, an error signalled, an async rejection); the others trade on', async () => {
    const journal = join(dir, 'strategies.jsonl');
    const path = config(
      'strategies',
      [
        failing('thrower', 'throws-in-callback.ts'),
        failing('signaller', 'signals-error.ts'),
        failing('rejecter', 'rejects-async.ts'),
        '  - { id: mm, use: market-maker, market: ETH_USDT, params: { spread: 0.002, size: 0.02, levels: 1, maxInventory: 0.5, refreshThreshold: 0.001 }, risk: { unlimited: true } }',
      ],
      journal,
    );
    const d = spawnDaemon(path, env());
    const halted = () => new Set(journalAt(journal).flatMap((r) => (r.type === 'halt' ? [r.strategyId] : [])));
    await until('the three failing strategies halted', () => ['thrower', 'signaller', 'rejecter'].every((id) => halted().has(id)), 30_000, d.output);
    await until('their orders cancelled', () => ['thrower', 'signaller', 'rejecter'].every((id) => openOf(`${id}-`).length === 0), 10_000, d.output);
    // each had placed its two orders before it failed
    const submitted = (id: string) => journalAt(journal).filter((r) => r.type === 'submit' && r.strategyId === id).length;
    for (const id of ['thrower', 'signaller', 'rejecter']) expect(submitted(id), id).toBe(2);
    // the daemon runs on, and so does the healthy strategy
    expect(d.child.exitCode).toBeNull();
    expect(openOf('mm-').length).toBeGreaterThan(0);
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(sim.exchange.openOrders(accountId)).toHaveLength(0);
  }, 60_000);
});

/**
 * A daemon whose strategy module throws outside any strategy once its orders rest (the fixture throws once the file
 * it is told of exists; `again`: on every tick after, keeping the process alive). Its exit code, output and journal.
 */
async function throwOutside(id: string, again: boolean): Promise<{ code: number | null; output: string; journal: string }> {
  const journal = join(dir, `${id}.jsonl`);
  const path = config(
    id,
    [`  - { id: ${id}, use: ${join(fixtures, 'throws-outside.ts')}, market: BTC_USDT, params: { failAfterBooks: 100000 }, risk: { unlimited: true } }`],
    journal,
  );
  const throwNow = join(dir, `throw-${id}-now`);
  const d = spawnDaemon(path, { ...env(), THROW_OUTSIDE_WHEN: throwNow, ...(again ? { THROW_OUTSIDE_AGAIN: '1' } : {}) });
  await until('its orders resting', () => openOf(`${id}-`).length === 2, 20_000, d.output);
  writeFileSync(throwNow, '');
  const code = await d.exited;
  return { code, output: d.output(), journal };
}

describe('the emergency stop', () => {
  it('an uncaught exception outside every strategy: every order cancelled, one line naming the cause, exit 4', async () => {
    const r = await throwOutside('outside', false);
    expect(r.code, r.output).toBe(4);
    expect(r.output).toMatch(/bot: emergency stop: uncaught exception: boom outside any strategy; orders cancelled, open at stop 0 \[ERR_EMERGENCY_STOP\]/);
    expect(openOf('outside-')).toHaveLength(0);
    expect(journalAt(r.journal).at(-1)?.type).toBe('stop');
  }, 60_000);

  it('a module timer that keeps throwing, during the emergency stop and after it: still exit 4, one line each, no stack trace', async () => {
    const r = await throwOutside('again', true);
    expect(r.code, r.output).toBe(4);
    expect(r.output).toMatch(/bot: emergency stop: uncaught exception: boom outside any strategy; orders cancelled/);
    expect(r.output).toMatch(/bot run: after it finished: uncaught exception: boom outside any strategy/);
    // Node's own report of an uncaught exception: the source line, a caret, the stack (pino's JSON escapes its own)
    expect(r.output).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
    expect(openOf('again-')).toHaveLength(0);
  }, 60_000);

  it.skipIf(!canMountTmpfs())(
    'a journal on a full disk (ENOSPC): every order cancelled, one line naming the cause, exit 4',
    async () => {
      const disk = mountTinyDisk(64, 8);
      try {
        const journal = join(disk.dir, 'journal.jsonl');
        // requoting at every small move: the journal fills its 8 KiB in about a second (it took ~25 s at 0.0002)
        const path = config(
          'full-disk',
          [
            '  - { id: full, use: market-maker, market: BTC_USDT, params: { spread: 0.002, size: 0.002, levels: 2, levelSpacing: 0.001, maxInventory: 0.02, refreshThreshold: 0.00001 }, risk: { unlimited: true } }',
          ],
          journal,
        );
        const d = spawnDaemon(path, env());
        // the most orders seen resting before the end: the stop had orders to cancel, the claim is not vacuous
        let resting = 0;
        const sample = setInterval(() => (resting = Math.max(resting, openOf('full-').length)), 20);
        const code = await Promise.race([d.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 45_000))]).finally(() =>
          clearInterval(sample),
        );
        expect(code, d.output()).toBe(4);
        expect(resting).toBeGreaterThan(0);
        expect(d.output()).toMatch(/bot: emergency stop: journal write failed: .*no space left on device.*open at stop 0 \[ERR_EMERGENCY_STOP\]/i);
        expect(openOf('full-')).toHaveLength(0);
      } finally {
        disk.unmount();
      }
    },
    60_000,
  );
});
