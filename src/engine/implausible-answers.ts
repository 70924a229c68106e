import type { EngineEvent } from './events.js';
import type { Journal } from './journal.js';

/**
 * A venue answer about one of our orders that is not taken as fact: journalled as an anomaly and told, once per order
 * and detail (a list that keeps lying about an order would otherwise write a record per poll).
 */
export class ImplausibleAnswers {
  /** The last implausible answer reported per order. */
  private readonly reportedAnswers = new Map<string, string>();

  constructor(private readonly o: { readonly journal: Journal; readonly now: () => number; readonly emit: (e: EngineEvent) => void }) {}

  report(strategyId: string, clientOrderId: string, detail: string): void {
    if (this.reportedAnswers.get(clientOrderId) === detail) return;
    if (this.reportedAnswers.size >= 10_000) this.reportedAnswers.clear();
    this.reportedAnswers.set(clientOrderId, detail);
    this.o.journal.append({ t: this.o.now(), type: 'anomaly', kind: 'implausible-answer', strategyId, clientOrderId, detail });
    this.o.emit({ type: 'error', at: this.o.now(), strategyId, code: 'ERR_VENUE_IMPLAUSIBLE', message: `${clientOrderId}: ${detail}` });
  }
}
