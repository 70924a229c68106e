import { describe, expect, it } from 'vitest';
import { OPS_TOKEN, startOpsDaemon, waitFor } from '../helpers/ops-daemon.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

describe('webhook alerts (daemon on the sim, a local receiver)', () => {
  it('a loss-limit halt arrives once, after a retry, with no secret in it; the stop is announced too', async () => {
    // answers 503 to the first POST (so the sender must retry); the key in the path is the webhook's secret, as in a chat webhook's URL
    const hook = await webhookReceiver((n) => (n === 1 ? 503 : 200), '/hooks/T0001/WEBHOOK-KEY-7f3a9c');
    const d = await startOpsDaemon({
      // the market 10x as fast: the first fill (and with it the halt) comes sooner; nothing here depends on its pace
      speed: 10,
      // the first fee takes the net PnL under -0.01: the loss limit halts the strategy
      risk: '{ maxOrderNotional: 1000, maxOpenOrders: 8, maxOrdersPerMinute: 600, maxLoss: 0.01 }',
      extra: ['alerts:', `  webhook: ${hook.url}`, '  on: [loss-limit, strategy-halted, daemon-stopping, stale-data]', '  maxPerMinute: 5', '  retries: 3'],
    });
    let stopped = false;
    try {
      await waitFor('the halt in the journal', () => d.records().some((r) => r.type === 'halt'), 90_000, 200);
      await waitFor('the alert accepted', () => hook.accepted.some((a) => a.kind === 'loss-limit'), 15_000, 100);
      expect(hook.attempts()).toBeGreaterThanOrEqual(2); // the 503 was retried

      await d.stop();
      stopped = true;
      await waitFor('the stopping alert', () => hook.accepted.some((a) => a.kind === 'daemon-stopping'), 10_000, 100);
      // the stop drained the sender, and the stopping alert came after everything before it: a duplicate would be here
      const losses = hook.accepted.filter((a) => a.kind === 'loss-limit');
      expect(losses).toHaveLength(1);
      expect(losses[0]).toMatchObject({ kind: 'loss-limit', strategy: 'mm' });
      expect(String(losses[0]!.message)).toMatch(/loss limit/);
      const sent = hook.raw.map((r) => `${r.headers}\n${r.body}`).join('\n');
      for (const secret of [d.apiSecret, OPS_TOKEN, 'WEBHOOK-KEY-7f3a9c']) expect(sent.includes(secret), 'a secret in a header or body').toBe(false);
      expect(hook.accepted.every((a) => typeof a.at === 'string' && typeof a.message === 'string')).toBe(true);
    } finally {
      if (!stopped) await d.stop();
      await hook.close();
    }
  }, 150_000);
});
