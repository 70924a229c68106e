import type { EngineEvent } from '../../engine/events.js';
import type { AlertKind, AlertsConfig } from '../../settings/ops-config.js';
import type { VenueHealth } from '../health/venue-health.js';
import type { Alert } from './webhook-sender.js';

/**
 * Turns engine events and the venue's health into alerts, each once per occurrence:
 * - `loss-limit`: a strategy halted by its loss limit; `strategy-halted`: a strategy that failed (threw) and stopped;
 * - `account-limit`: an account-wide limit crossed, every strategy halted (one alert: the strategies' own halts that
 *   follow it are not sent as `loss-limit` alerts too);
 * - `stale-data`: a market's book went stale, its orders cancelled (not again until it was fresh);
 * - `venue-unreachable`: no answer for `venueUnreachableSec` (once per outage);
 * - `order-unknown`: an order still unknown `unknownAfterSec` after it became so (reconciliation has not settled it);
 * - `daemon-stopping`: sent by the daemon itself (`stopping()`).
 */
export class AlertWatch {
  private readonly on: ReadonlySet<AlertKind>;
  private readonly unknownSince = new Map<string, { at: number; strategy: string }>();
  private venueAlerted = false;
  /** Set by an account halt: every strategy's halt after it is its consequence, already told. */
  private accountHalted = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly cfg: AlertsConfig,
    private readonly venue: VenueHealth,
    private readonly deliver: (a: Alert) => void,
    private readonly wallNow: () => number = Date.now,
  ) {
    this.on = new Set(cfg.on);
  }

  /** Starts the once-a-second checks (venue reachability, unknown orders). */
  start(): void {
    this.timer = setInterval(() => this.check(), 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case 'account-halt':
        this.accountHalted = true;
        return this.emit('account-limit', `account limit ${e.limit} crossed: ${e.reason}; every strategy is halted and its orders are being cancelled`, {
          details: { limit: e.limit },
        });
      case 'risk-halt':
        if (this.accountHalted) return;
        return this.emit('loss-limit', `strategy ${e.strategyId} halted: ${e.reason}; its orders are being cancelled`, { strategy: e.strategyId });
      case 'error':
        if (e.code === 'ERR_STRATEGY' && e.strategyId !== undefined) this.emit('strategy-halted', e.message, { strategy: e.strategyId });
        return;
      case 'stale':
        if (e.stale) {
          const orders = e.canceled ? `; ${e.canceled} resting orders are being cancelled` : '';
          this.emit('stale-data', `${e.market}: no fresh sane ${e.source} data, new orders refused until it returns${orders}`, { market: e.market });
        }
        return;
      case 'unknown':
        this.unknownSince.set(e.clientOrderId, { at: this.wallNow(), strategy: e.strategyId });
        return;
      case 'reconciled':
        this.unknownSince.delete(e.clientOrderId);
        return;
      default:
        return;
    }
  }

  /** The daemon is stopping (signal or control): the alert is queued like any other. */
  stopping(reason: string): void {
    this.emit('daemon-stopping', `daemon stopping: ${reason}`, {});
  }

  /** One round of the timed checks (exposed for tests). */
  check(): void {
    const down = this.venue.unreachableForSec();
    if (down >= this.cfg.venueUnreachableSec && !this.venueAlerted) {
      this.venueAlerted = true;
      const s = this.venue.state();
      this.emit('venue-unreachable', `the venue has not answered for ${Math.floor(down)} s${s.lastError ? ` (${s.lastError})` : ''}`, {});
    } else if (down === 0) this.venueAlerted = false;
    const limit = this.wallNow() - this.cfg.unknownAfterSec * 1000;
    for (const [clientOrderId, u] of this.unknownSince) {
      if (u.at > limit) continue;
      this.unknownSince.delete(clientOrderId);
      this.emit('order-unknown', `order ${clientOrderId} is still of unknown outcome ${this.cfg.unknownAfterSec} s on; reconciliation goes on`, {
        strategy: u.strategy,
        details: { clientOrderId },
      });
    }
  }

  private emit(kind: AlertKind, message: string, x: { strategy?: string; market?: string; details?: Record<string, unknown> }): void {
    if (!this.on.has(kind)) return;
    this.deliver({ kind, at: new Date(this.wallNow()).toISOString(), message, ...x });
  }
}
