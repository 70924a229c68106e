import type { EngineEvent } from '../engine/events.js';

/** One line of the dashboard's "last events". */
export interface EventLine {
  /** Wall clock, Unix ms. */
  readonly at: number;
  readonly type: EngineEvent['type'];
  readonly strategy?: string;
  readonly text: string;
}

/**
 * What the operations surface remembers from the engine's events: markets whose data is stale, strategies that failed
 * (a strategy that throws stops alone), and the last events for the dashboard. Intents and submissions are left out
 * of the list: at quoting speed they would push everything else out.
 */
export class EventWatch {
  readonly staleMarkets = new Set<string>();
  readonly failedStrategies = new Map<string, string>();
  private readonly lines: EventLine[] = [];

  constructor(
    private readonly keep = 100,
    private readonly wallNow: () => number = Date.now,
  ) {}

  onEvent(e: EngineEvent): void {
    if (e.type === 'stale') {
      if (e.stale) this.staleMarkets.add(e.market);
      else this.staleMarkets.delete(e.market);
    }
    if (e.type === 'error' && e.code === 'ERR_STRATEGY' && e.strategyId !== undefined) this.failedStrategies.set(e.strategyId, e.message);
    const text = describe(e);
    if (text === undefined) return;
    this.lines.push({ at: this.wallNow(), type: e.type, ...('strategyId' in e && e.strategyId !== undefined ? { strategy: e.strategyId } : {}), text });
    if (this.lines.length > this.keep) this.lines.splice(0, this.lines.length - this.keep);
  }

  /** Newest first. */
  recent(n = 30): EventLine[] {
    return this.lines.slice(-n).reverse();
  }
}

function describe(e: EngineEvent): string | undefined {
  switch (e.type) {
    case 'intent':
    case 'submitted':
      return undefined;
    case 'accepted':
      return `placed ${e.order.side} ${e.order.amount.toFixed()} @ ${e.order.price.toFixed()} (${e.clientOrderId})`;
    case 'fill':
      return `fill ${e.deal.side} ${e.deal.amount.toFixed()} @ ${e.deal.price.toFixed()} ${e.deal.role}, fee ${e.deal.fee.toFixed()}`;
    case 'canceled':
      return `cancelled ${e.clientOrderId}`;
    case 'rejected':
      return `rejected (${e.reason}): ${e.message}`;
    case 'unknown':
      return `outcome unknown ${e.clientOrderId}, reconciling`;
    case 'reconciled':
      return `reconciled ${e.clientOrderId}: ${e.state}`;
    case 'adopted':
      return `adopted ${e.clientOrderId}`;
    case 'risk-halt':
      return `HALTED: ${e.reason}`;
    case 'account-halt':
      return `ACCOUNT HALTED (${e.limit}): ${e.reason}`;
    case 'stale':
      return `${e.market} ${e.source} ${e.stale ? 'is stale' : 'fresh again'}`;
    case 'book-held':
      // one line per episode: its first held poll
      return e.heldPolls === 1 ? `${e.market} order book held back (${e.reason}): ${e.message}` : undefined;
    case 'control':
      return `control ${e.action}${e.cancelOrders ? ' (cancel orders)' : ''} from ${e.source}`;
    case 'error':
      return `${e.code}: ${e.message}`;
  }
}
