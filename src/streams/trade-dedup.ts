import type { PublicTrade } from '../model/book.js';

/** What one page of recent trades adds. */
export interface DedupStep {
  /** Trades not seen before, oldest first (ascending trade id: equal timestamps keep the venue's order). */
  readonly fresh: readonly PublicTrade[];
  /**
   * True when trades may have been missed before this page: it was full (the venue's last `pageSize`) and
   * its oldest trade is newer than every trade already known, so nothing proves the two overlap.
   */
  readonly gap: boolean;
}

/**
 * De-duplicates the recent-trades pages a poller polls (the recorder; a strategy's `trades$`, streams/trades-source.ts),
 * by the venue's `tradeID`, across polls and across resumes (the constructor takes the ids a resumed file already holds).
 *
 * Why ids and not times: the venue's timestamps are whole seconds, so many trades share one; ids are unique
 * and increase with time. Pages may overlap by any amount, repeat a trade, or come out of order (an older
 * page answered after a newer one): an unseen id is fresh whatever the order, a seen one never is.
 *
 * Memory is bounded: the newest `memory` ids are remembered; an id at or below the newest one forgotten is
 * taken as already written (such a trade is older than `memory` later ones, far more than a page holds).
 */
export class TradeDeduper {
  readonly #ids = new Set<number>();
  readonly #memory: number;
  readonly #pageSize: number;
  /** Ids at or below this were forgotten; -Infinity while nothing was. */
  #floor = Number.NEGATIVE_INFINITY;
  #max = Number.NEGATIVE_INFINITY;

  constructor(known: Iterable<number> = [], options: { readonly memory?: number; readonly pageSize?: number } = {}) {
    this.#pageSize = options.pageSize ?? 100;
    this.#memory = Math.max(options.memory ?? 10_000, 2 * this.#pageSize);
    for (const id of known) this.#remember(id);
    this.#trim();
  }

  /** How many ids are remembered. */
  get size(): number {
    return this.#ids.size;
  }

  accept(page: readonly PublicTrade[]): DedupStep {
    let minId = Number.POSITIVE_INFINITY;
    for (const t of page) minId = Math.min(minId, t.id);
    const gap = page.length >= this.#pageSize && this.#max !== Number.NEGATIVE_INFINITY && minId > this.#max;
    const fresh: PublicTrade[] = [];
    for (const t of page) {
      if (t.id <= this.#floor || this.#ids.has(t.id)) continue;
      this.#remember(t.id);
      fresh.push(t);
    }
    fresh.sort((a, b) => a.id - b.id);
    this.#trim();
    return { fresh, gap };
  }

  #remember(id: number): void {
    this.#ids.add(id);
    if (id > this.#max) this.#max = id;
  }

  #trim(): void {
    if (this.#ids.size <= this.#memory) return;
    const sorted = [...this.#ids].sort((a, b) => a - b);
    const drop = sorted.length - this.#memory;
    for (let i = 0; i < drop; i++) this.#ids.delete(sorted[i]!);
    this.#floor = Math.max(this.#floor, sorted[drop - 1]!);
  }
}
