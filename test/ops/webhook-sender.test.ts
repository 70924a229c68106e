import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookSender, type Alert } from '../../src/ops/alerts/webhook-sender.js';
import { AlertWatch } from '../../src/ops/alerts/alert-watch.js';
import { VenueHealth } from '../../src/ops/health/venue-health.js';
import { AlertsConfigSchema } from '../../src/settings/ops-config.js';
import { webhookReceiver } from '../helpers/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function receiver(status: (n: number) => number): Promise<{ url: string; bodies: Record<string, unknown>[] }> {
  const r = await webhookReceiver(status);
  closers.push(() => r.close());
  return { url: r.url, bodies: r.accepted };
}

const alert = (message: string): Alert => ({ kind: 'stale-data', at: new Date(0).toISOString(), message });
const logger = pino({ level: 'silent' });

describe('webhook alerts', () => {
  it('caps the rate: over maxPerMinute nothing is sent, and the next alert that goes out says how many were held back', async () => {
    const hook = await receiver(() => 200);
    const results: string[] = [];
    const sender = new WebhookSender({
      url: hook.url,
      retries: 0,
      timeoutMs: 2000,
      maxPerMinute: 2,
      logger,
      secrets: [],
      onResult: (_k, r) => results.push(r),
    });
    for (let i = 0; i < 5; i++) void sender.send(alert(`a${i}`));
    await sender.drain();
    expect(hook.bodies.map((b) => b.message)).toEqual(['a0', 'a1']);
    expect(results.filter((r) => r === 'capped')).toHaveLength(3);
  });

  it('retries a failed POST with backoff, then gives up and says so; secrets are scrubbed from the body', async () => {
    const flaky = await receiver((n) => (n < 3 ? 503 : 200));
    const results: string[] = [];
    const sender = new WebhookSender({
      url: flaky.url,
      retries: 3,
      timeoutMs: 2000,
      maxPerMinute: 10,
      logger,
      secrets: ['sekrit-value-123'],
      backoffMs: 10,
      onResult: (_k, r) => results.push(r),
    });
    await sender.send(alert('leaked sekrit-value-123 and the hook ' + flaky.url));
    expect(results).toEqual(['sent']);
    expect(flaky.bodies).toHaveLength(1);
    expect(JSON.stringify(flaky.bodies[0])).not.toMatch(/sekrit-value-123|\/hook/);
    const dead = await receiver(() => 500);
    const failed: string[] = [];
    const give = new WebhookSender({
      url: dead.url,
      retries: 2,
      timeoutMs: 2000,
      maxPerMinute: 10,
      logger,
      secrets: [],
      backoffMs: 5,
      onResult: (_k, r) => failed.push(r),
    });
    await give.send(alert('x'));
    expect(failed).toEqual(['failed']);
  });

  it('the watch: a venue outage alerts once after venueUnreachableSec, an order unknown for unknownAfterSec alerts once, kinds not in `on` are silent', () => {
    let now = 0;
    const venue = new VenueHealth(() => now);
    const sent: Alert[] = [];
    const cfg = AlertsConfigSchema.parse({
      webhook: 'http://127.0.0.1:1/x',
      on: ['venue-unreachable', 'order-unknown', 'loss-limit'],
      venueUnreachableSec: 10,
      unknownAfterSec: 30,
    });
    const watch = new AlertWatch(
      cfg,
      venue,
      (a) => sent.push(a),
      () => now,
    );
    venue.onCall({ endpoint: 'orderbook', ms: 1 });
    venue.onCall({ endpoint: 'orderbook', ms: 1, error: 'ERR_VENUE_NETWORK', notReached: true });
    now = 9_000;
    watch.check();
    expect(sent).toEqual([]);
    now = 10_500;
    watch.check();
    now = 20_000;
    watch.check();
    expect(sent.map((a) => a.kind)).toEqual(['venue-unreachable']);
    watch.onEvent({ type: 'stale', at: 0, market: 'BTC_USDT', source: 'orderbook', stale: true }); // not in `on`
    watch.onEvent({ type: 'unknown', at: 0, strategyId: 'mm', clientOrderId: 'mm-1', message: 'timeout' });
    watch.onEvent({ type: 'unknown', at: 0, strategyId: 'mm', clientOrderId: 'mm-2', message: 'timeout' });
    watch.onEvent({ type: 'reconciled', at: 0, strategyId: 'mm', clientOrderId: 'mm-2', state: 'open' });
    now = 50_500;
    watch.check();
    now = 90_000;
    watch.check();
    expect(sent.map((a) => a.kind)).toEqual(['venue-unreachable', 'order-unknown']);
    expect(sent[1]!.details).toEqual({ clientOrderId: 'mm-1' });
    watch.onEvent({ type: 'risk-halt', at: 0, strategyId: 'mm', reason: 'net PnL -1 reached the loss limit -0.5' });
    expect(sent.at(-1)).toMatchObject({ kind: 'loss-limit', strategy: 'mm' });
  });
});
