import got from 'got';
import type { Logger } from 'pino';
import { backoffDelay } from '../../model/backoff.js';
import { createScrubber } from '../../settings/redaction.js';
import type { AlertKind } from '../../settings/ops-config.js';

/** The JSON object POSTed for one event. Built from engine facts only (ids, reasons, figures): never a key or secret. */
export interface Alert {
  readonly kind: AlertKind;
  /** ISO 8601 wall-clock time of the event. */
  readonly at: string;
  readonly message: string;
  readonly strategy?: string;
  readonly market?: string;
  readonly details?: Record<string, unknown>;
}

export interface WebhookOptions {
  readonly url: string;
  readonly retries: number;
  readonly timeoutMs: number;
  readonly maxPerMinute: number;
  readonly logger: Logger;
  /** Strings scrubbed from every body as a last line of defence (the API secret, the token, the webhook itself). */
  readonly secrets: readonly string[];
  /** Told each alert's result: sent, failed (after the retries) or capped (over maxPerMinute, not sent). */
  readonly onResult?: (kind: AlertKind, result: 'sent' | 'failed' | 'capped') => void;
  /** Base of the retry backoff, ms (doubles per retry up to 30 s, model/backoff.ts). Default 1000. */
  readonly backoffMs?: number;
  /** Identifies the daemon in each alert (e.g. the config file's name). */
  readonly source?: string;
}

/**
 * POSTs alerts one at a time (in order), each retried `retries` times with a doubling backoff, and at most
 * `maxPerMinute` in any sliding minute: alerts over the cap are not sent, but counted, and the next alert that goes
 * out says how many were held back. Failures are logged without the URL (a chat webhook's URL is its key).
 */
export class WebhookSender {
  private chain: Promise<void> = Promise.resolve();
  private readonly sentAt: number[] = [];
  private suppressed = 0;
  private readonly scrub: (line: string) => string;

  constructor(private readonly o: WebhookOptions) {
    this.scrub = createScrubber([...o.secrets, o.url]) ?? ((line) => line);
  }

  /** Queues the alert; resolves when it was sent, dropped by the cap, or given up on. Never rejects. */
  send(alert: Alert): Promise<void> {
    const now = Date.now();
    while (this.sentAt.length > 0 && this.sentAt[0]! <= now - 60_000) this.sentAt.shift();
    if (this.sentAt.length >= this.o.maxPerMinute) {
      this.suppressed += 1;
      this.o.onResult?.(alert.kind, 'capped');
      this.o.logger.warn({ kind: alert.kind }, `alert not sent: over ${this.o.maxPerMinute} a minute`);
      return this.chain;
    }
    this.sentAt.push(now);
    const suppressed = this.suppressed;
    this.suppressed = 0;
    const body = this.scrub(
      JSON.stringify({ ...alert, ...(this.o.source ? { source: this.o.source } : {}), ...(suppressed > 0 ? { suppressedBefore: suppressed } : {}) }),
    );
    this.chain = this.chain.then(() => this.post(alert.kind, body));
    return this.chain;
  }

  /** Waits for the alerts queued so far (the daemon's stop). */
  drain(): Promise<void> {
    return this.chain;
  }

  private async post(kind: AlertKind, body: string): Promise<void> {
    const base = this.o.backoffMs ?? 1000;
    for (let attempt = 0; ; attempt++) {
      try {
        await got.post(this.o.url, { body, headers: { 'content-type': 'application/json' }, timeout: { request: this.o.timeoutMs }, retry: { limit: 0 } });
        this.o.onResult?.(kind, 'sent');
        this.o.logger.info({ kind }, 'alert sent');
        return;
      } catch (error) {
        const status = (error as { response?: { statusCode?: number } }).response?.statusCode;
        const why = status !== undefined ? `HTTP ${status}` : ((error as { code?: string }).code ?? 'error');
        if (attempt >= this.o.retries) {
          this.o.onResult?.(kind, 'failed');
          this.o.logger.warn({ kind, attempts: attempt + 1, why }, 'alert could not be delivered');
          return;
        }
        await new Promise((r) => setTimeout(r, backoffDelay(attempt + 1, { baseMs: base })).unref());
      }
    }
  }
}
