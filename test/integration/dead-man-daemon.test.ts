import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { daemonChildren, journalAt, restDaemonYaml, until } from '../helpers/daemon-child.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import { startSim, type SimHandle } from '../../src/sim/start-sim.js';

const { dir, spawnDaemon } = daemonChildren('dead-man');
const TIMEOUT_SEC = 5; // the venue's minimum: the shortest honest test

/** A market maker quoting 1 % around the mid (so its quotes rest), the dead-man on, against a sim in this process. */
function writeConfig(name: string, sim: SimHandle, journal: string): string {
  const config = join(dir, `${name}.yaml`);
  writeFileSync(
    config,
    restDaemonYaml({
      baseUrl: sim.baseUrl,
      journal,
      strategies: [
        '  - id: mm',
        '    use: market-maker',
        '    market: BTC_USDT',
        '    params: { spread: 0.02, size: 0.002, levels: 2, levelSpacing: 0.001, maxInventory: 0.02, refreshThreshold: 0.01 }',
        '    risk: { unlimited: true }', // a rest venue's limits (issue 24) are not what this test is about
      ],
      polling: '{ bookMs: 300, dealsMs: 500, openOrdersMs: 1000, balancesMs: 1000 }',
      log: '{ level: info, pretty: false }',
      extra: ['status: { everyMs: 5000 }', `deadMan: { timeoutSec: ${TIMEOUT_SEC} }`],
    }),
  );
  return config;
}

describe('the daemon arms the venue kill-switch (deadMan)', () => {
  it(`SIGKILLed with quotes resting: the sim cancels them within the timeout + 1 s, and its records say it was the kill-switch`, async () => {
    const sim = await startSim({ port: 0 });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
      const journal = join(dir, 'killed.jsonl');
      const daemon = spawnDaemon(writeConfig('killed', sim, journal), { KEY: account.apiKey, SECRET: account.apiSecret });
      let armedAt = 0;
      await until(
        'the dead-man armed',
        () => {
          if (journalAt(journal).some((r) => r.type === 'deadman' && r.action === 'arm')) armedAt ||= Date.now();
          return armedAt > 0;
        },
        30_000,
        daemon.output,
      );
      // alive for longer than the timeout, quotes resting: the resets kept the venue's timer from running out
      await until(
        'quotes resting, more than the timeout after arming',
        () => Date.now() - armedAt > (TIMEOUT_SEC + 1.5) * 1000 && sim.exchange.openOrders(accountId, { market: 'BTC_USDT' }).length >= 2,
        30_000,
        daemon.output,
        50,
      );
      expect(sim.exchange.killSwitchFirings()).toEqual([]);
      expect(sim.exchange.killSwitchStatus(accountId).map((t) => t.market)).toEqual(['BTC_USDT']);

      daemon.child.kill('SIGKILL');
      const killedAt = Date.now();
      const restingAtKill = sim.exchange.openOrders(accountId, { market: 'BTC_USDT' });
      await daemon.exited;
      expect(restingAtKill.length).toBeGreaterThanOrEqual(2);

      await until('the kill-switch to fire', () => sim.exchange.killSwitchFirings(accountId).length > 0, (TIMEOUT_SEC + 5) * 1000, daemon.output, 50);
      const [firing, ...more] = sim.exchange.killSwitchFirings(accountId);
      expect(more).toEqual([]);
      expect(firing!.market).toBe('BTC_USDT');
      // the timer had been reset up to the kill (due after it), and it fired within the timeout + 1 s of the kill
      expect(firing!.dueMs).toBeGreaterThan(killedAt);
      expect(firing!.firedMs - killedAt).toBeLessThanOrEqual((TIMEOUT_SEC + 1) * 1000);
      // every quote left resting by the dead daemon was cancelled by the kill-switch (none filled in between at 1 % away)
      const cancelled = new Set(firing!.cancelled.map((o) => o.clientOrderId));
      for (const o of restingAtKill) {
        const filled = sim.exchange.deals(accountId).some((d) => d.clientOrderId === o.clientOrderId);
        expect(filled || cancelled.has(o.clientOrderId), `order ${o.clientOrderId} resting at the kill`).toBe(true);
      }
      expect(firing!.cancelled.every((o) => o.status === 'CANCELED' && o.clientOrderId.startsWith('mm-'))).toBe(true);
      expect(sim.exchange.openOrders(accountId)).toEqual([]);
      console.log(
        `dead-man: killed at +0 ms, kill-switch due at +${firing!.dueMs - killedAt} ms, fired at +${firing!.firedMs - killedAt} ms, cancelled ${firing!.cancelled.length} of ${restingAtKill.length} resting`,
      );
    } finally {
      await sim.close();
    }
  }, 90_000);

  it('a clean stop cancels the quotes, then clears the timer, and journals both steps in that order', async () => {
    const sim = await startSim({ port: 0 });
    try {
      const account = sim.accounts.find((a) => !a.partner)!;
      const accountId = sim.exchange.accountByKey(account.apiKey)!.id;
      const journal = join(dir, 'clean.jsonl');
      const daemon = spawnDaemon(writeConfig('clean', sim, journal), { KEY: account.apiKey, SECRET: account.apiSecret });
      await until(
        'quotes resting with the timer armed',
        () => sim.exchange.openOrders(accountId).length >= 2 && sim.exchange.killSwitchStatus(accountId).length === 1,
        30_000,
        daemon.output,
        50,
      );
      daemon.child.kill('SIGTERM');
      expect(await daemon.exited).toBe(0);
      expect(sim.exchange.openOrders(accountId)).toEqual([]);
      expect(sim.exchange.killSwitchStatus(accountId)).toEqual([]);
      expect(sim.exchange.killSwitchFirings()).toEqual([]);
      const records = journalAt(journal);
      const at = (pred: (r: JournalRecord) => boolean) => records.findIndex(pred);
      const lastIndex = (pred: (r: JournalRecord) => boolean) => records.length - 1 - [...records].reverse().findIndex(pred);
      const arm = at((r) => r.type === 'deadman' && r.action === 'arm');
      const clear = at((r) => r.type === 'deadman' && r.action === 'clear');
      expect(arm).toBeGreaterThanOrEqual(0);
      expect(arm).toBeLessThan(at((r) => r.type === 'submit'));
      expect(clear).toBeGreaterThan(lastIndex((r) => r.type === 'cancel'));
      expect(clear).toBeLessThan(at((r) => r.type === 'stop'));
      expect(daemon.output()).toMatch(/dead-man timer armed/);
      expect(daemon.output()).toMatch(/dead-man timer cleared/);
    } finally {
      await sim.close();
    }
  }, 90_000);
});
