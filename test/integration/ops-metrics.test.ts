import { describe, expect, it } from 'vitest';
import { parsePrometheus, sumOf, type MetricFamily } from '../helpers/prometheus-text.js';
import { opsPost, startOpsDaemon, waitFor } from '../helpers/ops-daemon.js';

/** Every label the daemon's own metrics may carry: bounded sets from the config and the venue's tables, never ids or prices. */
const ALLOWED_LABELS = new Set(['strategy', 'market', 'side', 'role', 'stage', 'reason', 'action', 'endpoint', 'outcome', 'bucket', 'code', 'kind', 'result', 'le']);

async function scrape(url: string): Promise<{ text: string; families: Map<string, MetricFamily>; contentType: string }> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, families: parsePrometheus(text), contentType: res.headers.get('content-type') ?? '' };
}

describe('the daemon\'s /metrics, /health and /ready (daemon on the sim, http on)', () => {
  it('counters and histograms move as the journal says; gauges match the strategy; labels stay bounded', async () => {
    const d = await startOpsDaemon();
    try {
      await waitFor('some trading (6 submits, 2 fills)', () => {
        const r = d.records();
        return r.filter((x) => x.type === 'submit').length >= 6 && r.filter((x) => x.type === 'fill').length >= 2;
      }, 60_000);
      // quiesce: pause and cancel, so the journal and the counters stop moving between the two reads
      expect((await opsPost(d.url, '/api/strategies/mm/pause', { cancelOrders: true })).status).toBe(200);
      await waitFor('no live order', async () => sumOf((await scrape(d.url)).families, 'bot_strategy_open_orders', { strategy: 'mm' }) === 0, 20_000, 200);
      // late deals of the cancelled orders land: every deal the venue made for the account is journalled
      await waitFor('every venue deal journalled', () => {
        const journalled = new Set(d.records().flatMap((r) => (r.type === 'fill' ? [r.deal.id] : [])));
        return d.sim.exchange.deals(d.accountId, { limit: 100_000 }).every((deal) => journalled.has(deal.id));
      }, 20_000, 50);

      const before = d.records().length;
      const { families, text, contentType } = await scrape(d.url);
      const records = d.records();
      expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);

      const submits = records.filter((r) => r.type === 'submit').length;
      const cancels = records.filter((r) => r.type === 'cancel').length;
      const fills = records.filter((r) => r.type === 'fill' && r.strategyId === 'mm');
      expect(sumOf(families, 'bot_orders_submitted_total', { strategy: 'mm' })).toBe(submits);
      expect(sumOf(families, 'bot_cancels_submitted_total', { strategy: 'mm' })).toBe(cancels);
      expect(sumOf(families, 'bot_fills_total', { strategy: 'mm' })).toBe(fills.length);
      const volume = fills.reduce((a, r) => a + (r.type === 'fill' ? Number(r.deal.amount) : 0), 0);
      expect(sumOf(families, 'bot_fill_volume_base_total', { strategy: 'mm' })).toBeCloseTo(volume, 9);
      // one orderNew attempt per submit (no retries against a healthy sim): the latency histogram counted each
      const latency = families.get('bot_venue_request_duration_seconds')!;
      expect(latency.type).toBe('histogram');
      const orderNew = latency.histograms.find((h) => h.labels.endpoint === 'orderNew')!;
      expect(orderNew.count).toBe(submits);
      expect(orderNew.buckets.at(-1)).toEqual([Infinity, submits]); // the parser checked the buckets never decrease
      expect(orderNew.sum).toBeGreaterThan(0);
      expect(sumOf(families, 'bot_venue_requests_total', { endpoint: 'orderNew', outcome: 'ok' })).toBe(submits);
      // every journal record went through the timed append (the count sits between the reads around the scrape)
      const appends = sumOf(families, 'bot_journal_append_duration_seconds');
      expect(appends).toBeGreaterThanOrEqual(before);
      expect(appends).toBeLessThanOrEqual(records.length);
      expect(sumOf(families, 'bot_journal_fsync_duration_seconds')).toBeGreaterThan(0);
      // the control moved its counter and the paused gauge; the journal has the control record
      expect(sumOf(families, 'bot_controls_total', { action: 'pause' })).toBe(1);
      expect(records.filter((r) => r.type === 'control' && r.action === 'pause' && r.cancelOrders === true && r.strategyId === 'mm')).toHaveLength(1);
      expect(sumOf(families, 'bot_strategy_paused', { strategy: 'mm' })).toBe(1);
      // inventory: the signed sum of the journal's fills
      const inventory = fills.reduce((a, r) => a + (r.type === 'fill' ? (r.deal.side === 'buy' ? 1 : -1) * Number(r.deal.amount) : 0), 0);
      expect(sumOf(families, 'bot_strategy_inventory', { strategy: 'mm' })).toBeCloseTo(inventory, 9);
      // the rest of the list is there
      for (const name of ['bot_rate_limit_headroom_ratio', 'bot_rate_limit_queue_depth', 'bot_executor_queue_depth', 'bot_poll_age_seconds', 'bot_strategy_net_pnl', 'bot_strategy_realised_pnl', 'bot_strategy_unrealised_pnl', 'bot_orders_unknown_total', 'bot_reconcile_actions_total', 'bot_venue_rate_limited_total', 'nodejs_eventloop_lag_seconds', 'process_cpu_user_seconds_total', 'process_resident_memory_bytes']) {
        expect(families.has(name) || text.includes(`# TYPE ${name} `), name).toBe(true);
      }
      expect(sumOf(families, 'bot_rate_limit_headroom_ratio', { bucket: 'orderNew' })).toBeGreaterThan(0);
      const bookAge = families.get('bot_poll_age_seconds')!.samples.find((s) => s.labels.endpoint === 'orderbook' && s.labels.market === 'BTC_USDT');
      expect(bookAge?.value).toBeLessThan(5);
      // bounded labels: no order id, client order id or price anywhere
      for (const f of families.values()) {
        if (!f.name.startsWith('bot_')) continue;
        for (const s of [...f.samples, ...f.histograms]) for (const k of Object.keys(s.labels)) expect(ALLOWED_LABELS.has(k), `${f.name} label ${k}`).toBe(true);
      }
      expect(text).not.toMatch(/mm-[0-9a-z]+-[0-9a-z]+/); // no client order id

      const health = await fetch(`${d.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'alive' });
      const ready = await fetch(`${d.url}/ready`);
      const body = (await ready.json()) as { ready: boolean; checks: Record<string, { ok: boolean; why: string }> };
      expect(ready.status, JSON.stringify(body)).toBe(200);
      expect(body.ready).toBe(true);
      expect(Object.keys(body.checks).sort()).toEqual(['data', 'deadMan', 'journal', 'strategies', 'venue']);
      expect(body.checks.strategies!.why).toMatch(/paused by an operator: mm/);
    } finally {
      await d.stop();
    }
  }, 120_000);

  it('/ready says 503 and why when the venue stops answering', async () => {
    const d = await startOpsDaemon();
    try {
      await waitFor('ready', async () => (await fetch(`${d.url}/ready`)).status === 200, 30_000, 200);
      // nothing resting when the venue goes: the stop then has no cancel to retry and no order to settle for its
      // whole in-doubt window against a venue that cannot answer (~20 s that say nothing about readiness)
      expect((await opsPost(d.url, '/api/strategies/mm/pause', { cancelOrders: true })).status).toBe(200);
      await waitFor('no live order', async () => d.sim.exchange.openOrders(d.accountId).length === 0 && sumOf((await scrape(d.url)).families, 'bot_strategy_open_orders', { strategy: 'mm' }) === 0, 20_000, 50);
      await d.sim.close(); // the venue is gone: every poll fails
      await waitFor('not ready', async () => (await fetch(`${d.url}/ready`)).status === 503, 30_000, 200);
      const body = (await (await fetch(`${d.url}/ready`)).json()) as { ready: boolean; checks: Record<string, { ok: boolean; why: string }> };
      expect(body.ready).toBe(false);
      expect(body.checks.venue!.ok).toBe(false);
      expect(body.checks.venue!.why).toMatch(/has not answered for/);
    } finally {
      await d.stop();
    }
  }, 90_000);

  it('cancel-orders and stop controls: journalled, acted on; the stop ends the daemon as a signal would', async () => {
    const d = await startOpsDaemon();
    let stopped = false;
    try {
      await waitFor('quotes resting', () => d.sim.exchange.openOrders(d.accountId).length >= 2, 30_000, 100);
      expect((await opsPost(d.url, '/api/strategies/nope/cancel-orders')).status).toBe(404);
      const cancel = await opsPost(d.url, '/api/strategies/mm/cancel-orders');
      expect(cancel.status).toBe(200);
      await waitFor('the cancels journalled', () => d.records().some((r) => r.type === 'control' && r.action === 'cancel-orders') && d.records().some((r) => r.type === 'cancel'), 10_000, 100);
      const stop = await opsPost(d.url, '/api/stop');
      expect(stop.status).toBe(200);
      const summary = await d.finished; // ends by itself, no signal
      stopped = true;
      expect(summary.openOrdersLeft).toBe(0);
      const records = d.records();
      const control = records.findIndex((r) => r.type === 'control' && r.action === 'stop');
      expect(control).toBeGreaterThan(0);
      expect(records.at(-1)?.type).toBe('stop');
      expect(d.sim.exchange.openOrders(d.accountId)).toEqual([]);
    } finally {
      await d.stop();
      expect(stopped).toBe(true);
    }
  }, 90_000);
});
