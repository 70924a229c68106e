import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineEvent } from '../../engine/events.js';
import type { StatusSnapshot } from '../../engine/run-summary.js';
import type { DeadManMarketStatus } from '../../engine/dead-man.js';
import type { VenueCallObserver, VenueCallRecord } from '../../venue/call-observer.js';
import type { BucketStats } from '../../venue/rate-limiter.js';
import type { StreamAge } from '../health/venue-health.js';

/** What the gauges are read from at each scrape. */
export interface ScrapeSources {
  status(): StatusSnapshot;
  limiterStats(): readonly BucketStats[];
  streamAges(): readonly StreamAge[];
  deadMan?(): readonly DeadManMarketStatus[];
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const APPEND_BUCKETS = [0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.0025, 0.005, 0.01, 0.05];
const FSYNC_BUCKETS = [0.000_5, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/**
 * The daemon's Prometheus metrics (prom-client, on a registry of its own). Counters move with the engine's events
 * and the client's calls; gauges are read from the status snapshot when scraped. Labels are bounded: strategy ids,
 * markets and endpoints come from the config and the venue's fixed table, reasons from stable codes; never an order
 * id or a price. Money gauges are float64, as every Prometheus sample: the exact figures stay Decimal in the journal.
 */
export class DaemonMetrics implements VenueCallObserver {
  readonly registry = new Registry();
  private readonly r = [this.registry];
  readonly submitted = new Counter({
    name: 'bot_orders_submitted_total',
    help: 'Orders sent to the venue (journal submit records)',
    labelNames: ['strategy'],
    registers: this.r,
  });
  readonly cancelsSent = new Counter({
    name: 'bot_cancels_submitted_total',
    help: 'Cancel requests sent to the venue',
    labelNames: ['strategy'],
    registers: this.r,
  });
  readonly rejected = new Counter({
    name: 'bot_orders_rejected_total',
    help: 'Intents and orders rejected, by stage and stable reason',
    labelNames: ['strategy', 'stage', 'reason'],
    registers: this.r,
  });
  readonly accepted = new Counter({ name: 'bot_orders_accepted_total', help: 'Orders the venue accepted', labelNames: ['strategy'], registers: this.r });
  readonly canceled = new Counter({ name: 'bot_orders_canceled_total', help: 'Orders confirmed cancelled', labelNames: ['strategy'], registers: this.r });
  readonly unknown = new Counter({
    name: 'bot_orders_unknown_total',
    help: 'Orders whose outcome became unknown (then reconciled)',
    labelNames: ['strategy'],
    registers: this.r,
  });
  readonly fills = new Counter({ name: 'bot_fills_total', help: 'Own deals', labelNames: ['strategy', 'market', 'side', 'role'], registers: this.r });
  readonly volume = new Counter({
    name: 'bot_fill_volume_base_total',
    help: 'Filled amount in the base asset',
    labelNames: ['strategy', 'market', 'side'],
    registers: this.r,
  });
  readonly notional = new Counter({
    name: 'bot_fill_notional_quote_total',
    help: 'Filled value in the money asset',
    labelNames: ['strategy', 'market', 'side'],
    registers: this.r,
  });
  readonly reconcile = new Counter({
    name: 'bot_reconcile_actions_total',
    help: 'Reconciliation outcomes (state the venue proved) and adoptions',
    labelNames: ['strategy', 'action'],
    registers: this.r,
  });
  readonly halts = new Counter({ name: 'bot_risk_halts_total', help: 'Strategies halted by their loss limit', labelNames: ['strategy'], registers: this.r });
  readonly accountHalts = new Counter({
    name: 'bot_account_halts_total',
    help: 'Account-wide limits crossed (every strategy halted), by limit',
    labelNames: ['limit'],
    registers: this.r,
  });
  readonly errors = new Counter({
    name: 'bot_engine_errors_total',
    help: 'Engine errors (failed polls, strategy failures, reconcile retries) by code',
    labelNames: ['code'],
    registers: this.r,
  });
  readonly controls = new Counter({ name: 'bot_controls_total', help: 'Operator controls applied', labelNames: ['action'], registers: this.r });
  readonly requestSeconds = new Histogram({
    name: 'bot_venue_request_duration_seconds',
    help: 'Round trip of one venue call attempt (send to parsed answer), rate-limiter wait excluded',
    labelNames: ['endpoint'],
    buckets: LATENCY_BUCKETS,
    registers: this.r,
  });
  readonly requests = new Counter({
    name: 'bot_venue_requests_total',
    help: 'Venue call attempts by outcome (ok or the error code)',
    labelNames: ['endpoint', 'outcome'],
    registers: this.r,
  });
  readonly rateLimited = new Counter({ name: 'bot_venue_rate_limited_total', help: 'HTTP 429 answers', labelNames: ['endpoint'], registers: this.r });
  readonly journalAppend = new Histogram({
    name: 'bot_journal_append_duration_seconds',
    help: 'One journal record written (write(2), and fsync when the policy holds the record for it)',
    buckets: APPEND_BUCKETS,
    registers: this.r,
  });
  readonly journalFsync = new Histogram({ name: 'bot_journal_fsync_duration_seconds', help: 'One journal fsync', buckets: FSYNC_BUCKETS, registers: this.r });
  readonly booksHeld = new Counter({
    name: 'bot_books_held_total',
    help: 'Polled books held back by the sanity check (crossed, non-positive, an unconfirmed jump), one per poll',
    labelNames: ['market', 'reason'],
    registers: this.r,
  });
  readonly staleCancels = new Counter({
    name: 'bot_stale_cancels_total',
    help: 'Resting orders whose cancel was requested because the market data went stale',
    labelNames: ['market'],
    registers: this.r,
  });
  readonly alerts = new Counter({
    name: 'bot_alerts_total',
    help: 'Webhook alerts by kind and result (sent, failed, capped)',
    labelNames: ['kind', 'result'],
    registers: this.r,
  });
  private readonly g = {
    headroom: new Gauge({
      name: 'bot_rate_limit_headroom_ratio',
      help: 'Share of the rate-limit bucket free now (1 = idle)',
      labelNames: ['bucket'],
      registers: this.r,
    }),
    inWindow: new Gauge({ name: 'bot_rate_limit_in_window', help: 'Requests counting against the bucket now', labelNames: ['bucket'], registers: this.r }),
    limit: new Gauge({ name: 'bot_rate_limit_limit', help: 'The bucket allowance per window', labelNames: ['bucket'], registers: this.r }),
    waiting: new Gauge({ name: 'bot_rate_limit_queue_depth', help: 'Requests waiting for admission on the bucket', labelNames: ['bucket'], registers: this.r }),
    executorQueue: new Gauge({ name: 'bot_executor_queue_depth', help: 'Orders and cancels queued or in flight in the executor', registers: this.r }),
    pollAge: new Gauge({
      name: 'bot_poll_age_seconds',
      help: 'Time since the last successful call of an endpoint for a market (poll staleness)',
      labelNames: ['endpoint', 'market'],
      registers: this.r,
    }),
    stale: new Gauge({ name: 'bot_market_data_stale', help: '1 while the market book is stale', labelNames: ['market'], registers: this.r }),
    realised: new Gauge({
      name: 'bot_strategy_realised_pnl',
      help: 'Realised trading PnL minus fees, money asset',
      labelNames: ['strategy', 'market'],
      registers: this.r,
    }),
    unrealised: new Gauge({
      name: 'bot_strategy_unrealised_pnl',
      help: 'Unrealised PnL at the mid, money asset',
      labelNames: ['strategy', 'market'],
      registers: this.r,
    }),
    net: new Gauge({ name: 'bot_strategy_net_pnl', help: 'Realised - fees + unrealised, money asset', labelNames: ['strategy', 'market'], registers: this.r }),
    inventory: new Gauge({
      name: 'bot_strategy_inventory',
      help: 'Signed base position from own fills',
      labelNames: ['strategy', 'market'],
      registers: this.r,
    }),
    openOrders: new Gauge({ name: 'bot_strategy_open_orders', help: 'Live orders of the strategy', labelNames: ['strategy', 'market'], registers: this.r }),
    halted: new Gauge({ name: 'bot_strategy_halted', help: '1 when halted by its loss limit', labelNames: ['strategy'], registers: this.r }),
    paused: new Gauge({ name: 'bot_strategy_paused', help: '1 when paused by an operator', labelNames: ['strategy'], registers: this.r }),
    unknownNow: new Gauge({ name: 'bot_orders_unknown_now', help: 'Orders whose outcome is unknown right now', registers: this.r }),
    deadMan: new Gauge({
      name: 'bot_deadman_seconds_left',
      help: 'Seconds until the venue cancels the market if no reset comes',
      labelNames: ['market'],
      registers: this.r,
    }),
    // account-wide limits (risk.account): labelled by the money asset so a daemon without them shows no sample at all
    accountEquity: new Gauge({
      name: 'bot_account_equity',
      help: "Account equity: sum of the strategies' net PnL at the mids",
      labelNames: ['money'],
      registers: this.r,
    }),
    accountPeak: new Gauge({ name: 'bot_account_peak_equity', help: "Peak account equity over the journal's life", labelNames: ['money'], registers: this.r }),
    accountDrawdown: new Gauge({ name: 'bot_account_drawdown', help: 'Peak account equity minus equity', labelNames: ['money'], registers: this.r }),
    accountDailyLoss: new Gauge({
      name: 'bot_account_daily_loss',
      help: 'Equity at the start of the UTC day minus equity',
      labelNames: ['money'],
      registers: this.r,
    }),
    accountGross: new Gauge({
      name: 'bot_account_gross_notional',
      help: "Sum of |position| x mid and open orders' left x price over all strategies",
      labelNames: ['money'],
      registers: this.r,
    }),
    accountHalted: new Gauge({
      name: 'bot_account_halted',
      help: '1 while the account limits hold every strategy halted',
      labelNames: ['money'],
      registers: this.r,
    }),
    deadManFailures: new Gauge({
      name: 'bot_deadman_failures',
      help: 'Failed dead-man resets since the last success',
      labelNames: ['market'],
      registers: this.r,
    }),
  };

  constructor(options: { processMetrics?: boolean } = {}) {
    // process CPU/memory/fds, GC, heap and the event-loop lag (nodejs_eventloop_lag_*), under the same registry
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.g.stale.reset();
  }

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'submitted':
        (e.kind === 'place' ? this.submitted : this.cancelsSent).inc({ strategy: e.strategyId });
        return;
      case 'accepted':
        return this.accepted.inc({ strategy: e.strategyId });
      case 'rejected':
        return this.rejected.inc({ strategy: e.strategyId, stage: e.stage, reason: e.reason });
      case 'canceled':
        return this.canceled.inc({ strategy: e.strategyId });
      case 'unknown':
        return this.unknown.inc({ strategy: e.strategyId });
      case 'fill': {
        const labels = { strategy: e.strategyId ?? '(foreign)', market: e.deal.market, side: e.deal.side };
        this.fills.inc({ ...labels, role: e.deal.role });
        this.volume.inc(labels, e.deal.amount.toNumber());
        this.notional.inc(labels, e.deal.deal.toNumber());
        return;
      }
      case 'reconciled':
        return this.reconcile.inc({ strategy: e.strategyId, action: `reconciled-${e.state}` });
      case 'adopted':
        return this.reconcile.inc({ strategy: e.strategyId, action: 'adopted' });
      case 'risk-halt':
        return this.halts.inc({ strategy: e.strategyId });
      case 'account-halt':
        return this.accountHalts.inc({ limit: e.limit });
      case 'stale':
        if (e.canceled !== undefined) this.staleCancels.inc({ market: e.market }, e.canceled);
        return this.g.stale.set({ market: e.market }, e.stale ? 1 : 0);
      case 'book-held':
        return this.booksHeld.inc({ market: e.market, reason: e.reason });
      case 'control':
        return this.controls.inc({ action: e.action });
      case 'error':
        return this.errors.inc({ code: e.code });
      case 'intent':
        return;
    }
  }

  onCall(c: VenueCallRecord): void {
    this.requestSeconds.observe({ endpoint: c.endpoint }, c.ms / 1000);
    this.requests.inc({ endpoint: c.endpoint, outcome: c.error ?? 'ok' });
    if (c.status === 429) this.rateLimited.inc({ endpoint: c.endpoint });
  }

  /** The Prometheus text of every metric, gauges refreshed from `sources` first. */
  async scrape(sources: ScrapeSources): Promise<string> {
    this.refresh(sources);
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private refresh(sources: ScrapeSources): void {
    const s = sources.status();
    this.g.executorQueue.set(s.queueDepth);
    this.g.unknownNow.set(s.unknownOrders);
    for (const m of s.markets) {
      for (const f of m.strategies) {
        const l = { strategy: f.id, market: f.market };
        this.g.realised.set(l, f.realised.minus(f.fees).toNumber());
        this.g.unrealised.set(l, f.unrealised.toNumber());
        this.g.net.set(l, f.net.toNumber());
        this.g.inventory.set(l, f.inventory.toNumber());
        this.g.openOrders.set(l, f.liveOrders);
        this.g.halted.set({ strategy: f.id }, f.halted ? 1 : 0);
        this.g.paused.set({ strategy: f.id }, f.paused ? 1 : 0);
      }
    }
    const a = s.account;
    if (a) {
      const l = { money: a.money };
      if (a.equity) this.g.accountEquity.set(l, a.equity.toNumber());
      if (a.peak) this.g.accountPeak.set(l, a.peak.toNumber());
      if (a.drawdown) this.g.accountDrawdown.set(l, a.drawdown.toNumber());
      if (a.dailyLoss) this.g.accountDailyLoss.set(l, a.dailyLoss.toNumber());
      this.g.accountGross.set(l, a.grossNotional.toNumber());
      this.g.accountHalted.set(l, a.halt ? 1 : 0);
    }
    for (const b of sources.limiterStats()) {
      this.g.headroom.set({ bucket: b.bucket }, b.limit > 0 ? Math.max(0, 1 - b.inWindow / b.limit) : 1);
      this.g.inWindow.set({ bucket: b.bucket }, b.inWindow);
      this.g.limit.set({ bucket: b.bucket }, b.limit);
      this.g.waiting.set({ bucket: b.bucket }, b.queued);
    }
    for (const a of sources.streamAges()) this.g.pollAge.set({ endpoint: a.endpoint, market: a.market }, a.ageSec);
    const nowSec = Date.now() / 1000;
    for (const d of sources.deadMan?.() ?? []) {
      if (d.cancellationTime !== undefined) this.g.deadMan.set({ market: d.market }, Math.max(0, d.cancellationTime - nowSec));
      this.g.deadManFailures.set({ market: d.market }, d.failures);
    }
  }
}
