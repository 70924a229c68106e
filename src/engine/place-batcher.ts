import type PQueue from 'p-queue';
import type { Order } from '../model/order.js';
import { OutcomeUnknownError } from '../venue/errors.js';
import type { TradingApi } from '../venue/trading-api.js';
import { BULK_MAX_ORDERS, PATHS } from '../venue/wire.js';
import type { GatedLimitOrder, GatedOrder } from './gate.js';

/** What the batcher uses of the executor: its queues and its per-order journalling and outcome handling. */
export interface BatchPort {
  readonly api: TradingApi;
  queue(strategyId: string): PQueue;
  /** Takes a submission off the "queued, not started" list; false when the stop sequence already dropped it. */
  start(clientOrderId: string): boolean;
  /** The single-order path (order/new), for a batch of one. */
  sendOne(strategyId: string, order: GatedOrder): Promise<void>;
  /** Journals the `submit` record (before the request is sent) and emits `submitted`; false: not journalled, not to be sent. */
  begin(strategyId: string, order: GatedOrder): boolean;
  accepted(strategyId: string, order: GatedOrder, venue: Order): void;
  /** A sure rejection (`error.rejected`) → rejected; anything else → unknown, reconciled by client order id. */
  failed(strategyId: string, clientOrderId: string, error: unknown): void;
}

interface Batch {
  readonly orders: Array<{ readonly order: GatedLimitOrder; readonly settle: () => void }>;
  /** Resolves when the batch takes no more orders. */
  readonly closed: Promise<void>;
  close(): void;
}

/**
 * Batches a strategy's limit places emitted together (in one synchronous burst of intents, e.g. a market
 * maker's ladder) into bulk requests of up to 20 (order/bulk), one request instead of one per order.
 *
 * Order and guarantees are those of the single path:
 * - the batch takes its place in the strategy's p-queue at its FIRST order; a cancel or a stop-limit emitted in
 *   the burst closes it, so places after them go after them, as emitted;
 * - every order was gated (rules, risk) and given its client order id before it gets here; each gets its own
 *   `submit` journal record before the request is sent and its own `outcome` after;
 * - per-order results map one to one: placed → open (or filled), refused → rejected with the venue's code, no
 *   proof either way → unknown; a request whose outcome is unknown (dropped connection, timeout, 5xx) makes
 *   every order in it unknown, each reconciled by its client order id, never resubmitted.
 */
export class PlaceBatcher {
  private readonly open = new Map<string, Batch>();

  constructor(private readonly port: BatchPort) {}

  add(strategyId: string, order: GatedLimitOrder, settle: () => void): void {
    let batch = this.open.get(strategyId);
    if (batch === undefined) {
      batch = this.openBatch(strategyId);
      // the burst of intents is synchronous: the batch closes once it has run
      const b = batch;
      queueMicrotask(() => this.closeBatch(strategyId, b));
    }
    batch.orders.push({ order, settle });
  }

  /** Ends the strategy's open batch (a cancel or a stop-limit comes next). */
  close(strategyId: string): void {
    const batch = this.open.get(strategyId);
    if (batch !== undefined) this.closeBatch(strategyId, batch);
  }

  private openBatch(strategyId: string): Batch {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const batch: Batch = { orders: [], closed, close };
    this.open.set(strategyId, batch);
    void this.port.queue(strategyId).add(async () => {
      await batch.closed;
      // the stop sequence may have dropped some while the batch waited: those are never sent
      const live = batch.orders.filter((p) => this.port.start(p.order.clientOrderId));
      try {
        await this.send(
          strategyId,
          live.map((p) => p.order),
        );
      } finally {
        for (const p of batch.orders) p.settle();
      }
    });
    return batch;
  }

  private closeBatch(strategyId: string, batch: Batch): void {
    if (this.open.get(strategyId) === batch) this.open.delete(strategyId);
    batch.close();
  }

  private async send(strategyId: string, orders: readonly GatedLimitOrder[]): Promise<void> {
    if (orders.length === 1) return this.port.sendOne(strategyId, orders[0]!);
    for (let i = 0; i < orders.length; i += BULK_MAX_ORDERS) {
      const chunk = orders.slice(i, i + BULK_MAX_ORDERS);
      if (chunk.length === 1) {
        await this.port.sendOne(strategyId, chunk[0]!);
        continue;
      }
      await this.sendBulk(strategyId, chunk);
    }
  }

  private async sendBulk(strategyId: string, all: readonly GatedLimitOrder[]): Promise<void> {
    const { port } = this;
    const chunk = all.filter((order) => port.begin(strategyId, order));
    if (chunk.length === 0) return;
    let results;
    try {
      // the gated orders are the requests, as they are (the client serializes them)
      results = await port.api.placeLimitBulk!(chunk);
    } catch (error) {
      for (const order of chunk) port.failed(strategyId, order.clientOrderId, error);
      return;
    }
    chunk.forEach((order, i) => {
      const r = results[i];
      const id = order.clientOrderId;
      if (r?.status === 'placed') port.accepted(strategyId, order, r.order);
      else if (r?.status === 'rejected') port.failed(strategyId, id, r.error);
      else {
        const reason = r?.reason ?? `no result for order ${i + 1}`;
        port.failed(strategyId, id, new OutcomeUnknownError(`${reason}; reconcile by client order id "${id}"`, id, { endpoint: PATHS.orderBulk }));
      }
    });
  }
}
