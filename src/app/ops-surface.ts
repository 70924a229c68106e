import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { DeadManTimer } from '../engine/dead-man.js';
import type { Runtime } from '../engine/runtime.js';
import type { Journal } from '../engine/journal.js';
import { AlertWatch } from '../ops/alerts/alert-watch.js';
import { WebhookSender } from '../ops/alerts/webhook-sender.js';
import { controlRoutes } from '../ops/controls/control-routes.js';
import { dashboardRoutes } from '../ops/dashboard/dashboard-routes.js';
import { StateHistory } from '../ops/dashboard/state-history.js';
import { EventWatch } from '../ops/event-watch.js';
import { healthRoutes } from '../ops/health/health-routes.js';
import { VenueHealth } from '../ops/health/venue-health.js';
import { OpsServerError, startOpsServer, type OpsServer } from '../ops/http/ops-server.js';
import { ConfigError } from '../model/errors.js';
import { DaemonMetrics } from '../ops/metrics/daemon-metrics.js';
import { metricsRoutes } from '../ops/metrics/metrics-route.js';
import { timedJournal } from '../ops/metrics/timed-journal.js';
import type { OpsContext } from '../ops/ops-context.js';
import type { DaemonConfig } from '../settings/daemon-config.js';
import { parseListen } from '../settings/ops-config.js';
import type { VenueCallObserver } from '../venue/call-observer.js';
import type { RestClient } from '../venue/rest-client.js';

/**
 * The daemon's operations side (`http:` and `alerts:` of the config), in the order the daemon needs it: the
 * observers exist before the venue client and the journal (they are told about every call and fsync), the routes and
 * alerts attach to the runtime once it exists, and everything closes after the runtime's stop.
 */
export class OpsSurface {
  readonly metrics = new DaemonMetrics();
  readonly venue = new VenueHealth();
  readonly events = new EventWatch();
  private readonly history: StateHistory;
  private readonly subs: Subscription[] = [];
  private alerts: { watch: AlertWatch; sender: WebhookSender } | undefined;
  private server: OpsServer | undefined;
  private sampler: NodeJS.Timeout | undefined;

  /** Undefined when the config has neither `http:` nor `alerts:` (nothing is measured then). */
  static fromConfig(cfg: DaemonConfig, configPath: string, logger: Logger, secrets: readonly string[]): OpsSurface | undefined {
    return cfg.http === undefined && cfg.alerts === undefined ? undefined : new OpsSurface(cfg, configPath, logger, secrets);
  }

  private constructor(
    private readonly cfg: DaemonConfig,
    private readonly configPath: string,
    private readonly logger: Logger,
    private readonly secrets: readonly string[],
  ) {
    this.history = new StateHistory(cfg.http?.historyPoints ?? 900);
  }

  /** For the RestClient: every attempt feeds the latency histogram, the 429 count and the venue's health. */
  readonly callObserver: VenueCallObserver = {
    onCall: (c) => {
      this.metrics.onCall(c);
      this.venue.onCall(c);
    },
  };

  /** For the FileJournal: each fsync's duration. */
  readonly onFsync = (ms: number): void => this.metrics.journalFsync.observe(ms / 1000);

  /** The journal the engine writes through: each append timed. */
  journal(inner: Journal): Journal {
    return timedJournal(inner, (s) => this.metrics.journalAppend.observe(s));
  }

  /**
   * Binds the HTTP surface (when `http:` is on) before anything else starts, so a taken port fails the start at once;
   * it answers 503 "starting" until `attach`. Returns its URL.
   */
  async listen(): Promise<string | undefined> {
    const http = this.cfg.http;
    if (http === undefined) return undefined;
    try {
      this.server = await startOpsServer({
        listen: parseListen(http.listen)!,
        ...(http.token !== undefined ? { token: http.token } : {}),
        logger: this.logger,
      });
    } catch (error) {
      // e.g. the port is taken by another daemon: say where it is configured
      if (error instanceof OpsServerError) throw new ConfigError(`${this.configPath}: ${error.message}`, { cause: error });
      throw error;
    }
    return this.server.url;
  }

  /** Subscribes to the runtime's events and starts the alerts, the routes and the chart sampler. */
  attach(a: {
    runtime: Runtime;
    client: RestClient;
    journalWritable: () => boolean;
    deadMan?: DeadManTimer;
    venueLabel: string;
    requestStop: (reason: string) => void;
  }): void {
    if (this.cfg.alerts !== undefined) {
      const sender = new WebhookSender({
        url: this.cfg.alerts.webhook,
        retries: this.cfg.alerts.retries,
        timeoutMs: this.cfg.alerts.timeoutMs,
        maxPerMinute: this.cfg.alerts.maxPerMinute,
        logger: this.logger.child({ component: 'alerts' }),
        secrets: this.secrets,
        onResult: (kind, result) => this.metrics.alerts.inc({ kind, result }),
      });
      const watch = new AlertWatch(this.cfg.alerts, this.venue, (alert) => void sender.send(alert));
      watch.start();
      this.alerts = { watch, sender };
    }
    this.subs.push(
      a.runtime.events$.subscribe((e) => {
        this.metrics.onEvent(e);
        this.events.onEvent(e);
        this.alerts?.watch.onEvent(e);
      }),
    );
    const http = this.cfg.http;
    if (http === undefined || this.server === undefined) return;
    const deadMan = a.deadMan;
    const context: OpsContext = {
      runtime: a.runtime,
      metrics: this.metrics,
      venue: this.venue,
      events: this.events,
      history: this.history,
      limiterStats: () => a.client.limiterStats(),
      journalWritable: a.journalWritable,
      ...(deadMan ? { deadMan: () => deadMan.status() } : {}),
      venueLabel: a.venueLabel,
      controlsOn: http.token !== undefined,
      requestStop: a.requestStop,
    };
    this.server.setRoutes([...metricsRoutes(context), ...healthRoutes(context), ...dashboardRoutes(context), ...controlRoutes(context)]);
    this.sampler = setInterval(() => this.history.sample(a.runtime.status(), Date.now()), 1000);
    this.sampler.unref();
    this.history.sample(a.runtime.status(), Date.now());
  }

  /** The daemon is stopping: the alert goes out (awaited, at most `waitMs`) before the process ends. */
  async stopping(reason: string, waitMs = 5000): Promise<void> {
    if (!this.alerts) return;
    this.alerts.watch.stopping(reason);
    await Promise.race([this.alerts.sender.drain(), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }

  async close(): Promise<void> {
    clearInterval(this.sampler);
    this.alerts?.watch.stop();
    for (const s of this.subs) s.unsubscribe();
    await this.server?.close();
  }
}
