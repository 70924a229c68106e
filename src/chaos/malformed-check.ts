import type { Decimal } from '../model/decimal.js';
import type { Order } from '../model/order.js';

/**
 * The malformed-venue mode's own checks: what garbage arrived, how the daemons logged it (typed errors by
 * code), and whether any order was placed on the strength of garbage. A place or a cancel can only follow from
 * what the daemon read; a garbage book or order list that got through would show as an order far from the real
 * market, or as a garbage value (NaN, Infinity, 1e400) in the journal. Every venue order of the run is
 * compared with the real mid (sampled by the harness from the sim) when it was created.
 */
export class MidHistory {
  readonly #samples = new Map<string, Array<{ at: number; mid: Decimal }>>();

  add(market: string, atMs: number, mid: Decimal | undefined): void {
    if (mid === undefined) return;
    const list = this.#samples.get(market) ?? [];
    list.push({ at: atMs, mid });
    this.#samples.set(market, list);
  }

  /** The last mid sampled at or before `atMs` (or the first one). */
  at(market: string, atMs: number): Decimal | undefined {
    const list = this.#samples.get(market);
    if (!list || list.length === 0) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid]!.at <= atMs) lo = mid;
      else hi = mid - 1;
    }
    return list[lo]!.mid;
  }
}

/** Orders priced more than `band` (a fraction) away from the real mid of their creation time. */
export function ordersOffMarket(orders: readonly Order[], mids: MidHistory, band: number): string[] {
  const out: string[] = [];
  for (const o of orders) {
    const mid = mids.at(o.market, o.timestamp * 1000);
    if (mid === undefined) continue;
    const off = o.price.div(mid).minus(1).abs();
    if (off.gt(band)) out.push(`${o.clientOrderId} ${o.side} @ ${o.price.toFixed()} while the mid was ${mid.toFixed()}`);
  }
  return out;
}

/** `code` → count over a daemon's JSON log lines (engine error events and the client's retried calls). */
export function typedErrorCounts(logText: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of logText.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { code?: unknown; error?: unknown };
    try {
      entry = JSON.parse(line) as { code?: unknown; error?: unknown };
    } catch {
      continue;
    }
    const code = typeof entry.code === 'string' ? entry.code : typeof entry.error === 'string' ? entry.error : undefined;
    if (code !== undefined) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  return counts;
}

/**
 * Journal records carrying a value no venue answer should have put there (NaN, Infinity, 1e400, HTML) in any
 * field but the free-text `reason`/`message`, which may quote an error about such a value.
 */
export function garbageInJournal(text: string): number {
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const { reason: _reason, message: _message, ...values } = record;
    if (/NaN|Infinity|1e\+?400|<html/i.test(JSON.stringify(values))) n += 1;
  }
  return n;
}
